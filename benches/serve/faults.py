#!/usr/bin/env python3
"""Fault runs of `kdv serve` under load, on loopback only (issue 23).

A steady load (oha, fixed rate over TLS) runs against /validate while one fault at a time is
injected; each phase reports the load's success rate and latency percentiles, the answers
the faulty clients got, and the server's resident memory. The server must keep answering
the steady load within its deadline through every fault.

    python3 benches/serve/faults.py --kdv target/release/kdv --oha PATH/oha \
        --cert cert.pem --key key.pem --review review.json [--rate 2000] [--seconds 20]

Phases: baseline; slow headers (slowloris: 500 TLS connections sending one header byte a
second); 5,000 idle connections (TCP, no TLS handshake); mid-body disconnects (requests
that send half a body and close); rule reload every second (SIGHUP); certificate rotation
every second (the files rewritten); 10 MiB bodies (refused with 413); bodies that stop
arriving (answered 408 at the deadline). Through every phase a probe sends ten reviews a
second, each with its own uid, and checks that each answer echoes it. With `--floor` (the
kdv-serve `floor_server` example, whose judge panics on kind `Panic`), a last phase runs
against it: the steady load beside forty panicking reviews a second, each answered with the
failure mode's answer and its uid.
"""

import argparse
import asyncio
import json
import os
import signal
import shutil
import ssl
import subprocess
import sys
import tempfile
import time

HOST = "127.0.0.1"
SERVER_PID = None


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds(pid):
    """The server's open file descriptors (connections it still holds)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def tls_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


async def request(port, body, content_length=None, send=None, close_after_send=False, timeout=15):
    """One HTTP/1.1 POST /validate over TLS; the status code (None: no answer)."""
    reader, writer = await asyncio.open_connection(HOST, port, ssl=tls_context())
    length = len(body) if content_length is None else content_length
    head = (
        f"POST /validate HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\nConnection: close\r\n\r\n"
    ).encode()
    writer.write(head + (body if send is None else body[:send]))
    try:
        await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    if close_after_send:
        writer.close()
        return "closed"
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
        return int(line.split()[1]) if line else None
    except (asyncio.TimeoutError, ConnectionError, ssl.SSLError, IndexError, ValueError):
        return None
    finally:
        writer.close()


async def exchange(port, body, timeout=15):
    """One POST /validate over TLS (Connection: close): (status, response body) or None."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, ssl=tls_context()), timeout)
    except (OSError, asyncio.TimeoutError, ssl.SSLError):
        return None
    head = (
        f"POST /validate HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    try:
        writer.write(head + body)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
    except (asyncio.TimeoutError, ConnectionError, ssl.SSLError):
        return None
    finally:
        writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    try:
        return int(head.split()[1]), payload
    except (IndexError, ValueError):
        return None


def with_uid(review, uid, kind=None):
    """The review with its request's uid (and kind) replaced."""
    d = json.loads(review)
    d["request"]["uid"] = uid
    if kind:
        d["request"]["kind"]["kind"] = kind
        d["request"]["object"]["kind"] = kind
    return json.dumps(d).encode()


async def uid_probe(port, stop, review, per_second=10, kind=None, expect=None):
    """Reviews with their own uids; counts the answers that echo them (and, with `expect`,
    contain that text)."""
    sent = echoed = 0
    wrong = []
    n = 0
    while not stop.is_set():
        batch = []
        for _ in range(per_second):
            n += 1
            uid = f"probe-{os.getpid()}-{n}"
            batch.append((uid, exchange(port, with_uid(review, uid, kind))))
        answers = await asyncio.gather(*(c for _, c in batch))
        for (uid, _), answer in zip(batch, answers):
            sent += 1
            ok = False
            if answer and answer[0] == 200:
                try:
                    response = json.loads(answer[1])["response"]
                    ok = response["uid"] == uid and (expect is None or expect in answer[1].decode())
                except (ValueError, KeyError):
                    ok = False
            if ok:
                echoed += 1
            elif len(wrong) < 3:
                wrong.append(repr(answer)[:300])
        await asyncio.sleep(1)
    return {"sent": sent, "uid_echoed": echoed, "wrong": wrong}


async def slowloris(port, stop, count=500):
    """Connections that send their headers one byte a second."""
    head = f"POST /validate HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode()
    conns = []
    for _ in range(count):
        try:
            _, w = await asyncio.open_connection(HOST, port, ssl=tls_context())
            w.write(head)
            conns.append(w)
        except OSError:
            break
    closed = 0
    while not stop.is_set():
        for w in conns:
            if w.is_closing():
                continue
            try:
                w.write(b"a")
            except (ConnectionError, ssl.SSLError):
                closed += 1
        await asyncio.sleep(1)
    for w in conns:
        w.close()
    return {"slow_connections": len(conns)}


async def idle(port, stop, count=5000):
    """TCP connections that never start TLS."""
    conns = []
    for _ in range(count):
        try:
            _, w = await asyncio.open_connection(HOST, port)
            conns.append(w)
        except OSError as e:
            return {"idle_connections": len(conns), "error": str(e)}
    await asyncio.sleep(1)
    held_at_start = open_fds(SERVER_PID)
    await stop.wait()
    held_at_end = open_fds(SERVER_PID)
    for w in conns:
        w.close()
    # The server closes a connection that sends no TLS ClientHello within 10 s.
    return {"idle_connections": len(conns), "server_fds_after_1s": held_at_start,
            "server_fds_at_end": held_at_end}


async def mid_body(port, stop, body):
    """Requests that send half their body and close, 100 a second."""
    sent = 0
    while not stop.is_set():
        await asyncio.gather(
            *(request(port, body, send=len(body) // 2, close_after_send=True) for _ in range(10)),
            return_exceptions=True,
        )
        sent += 10
        await asyncio.sleep(0.1)
    return {"half_bodies": sent}


async def every_second(stop, action):
    n = 0
    while not stop.is_set():
        action()
        n += 1
        await asyncio.sleep(1)
    return {"times": n}


async def big_bodies(port, stop):
    """10 MiB bodies: refused (413) without reading them all."""
    body = b'{"x":"' + b"a" * (10 * 1024 * 1024) + b'"}'
    codes = {}
    while not stop.is_set():
        code = await request(port, body)
        codes[code] = codes.get(code, 0) + 1
        await asyncio.sleep(0.5)
    return {"status": codes}


async def stalled_bodies(port, stop, body):
    """Bodies that stop arriving: answered at the request deadline."""
    codes = {}
    while not stop.is_set():
        results = await asyncio.gather(
            *(request(port, body, send=len(body) // 2, timeout=30) for _ in range(20))
        )
        for code in results:
            codes[code] = codes.get(code, 0) + 1
    return {"status": codes}


def run_load(args, port):
    cmd = [
        args.oha, "-z", f"{args.seconds}s", "-c", "64", "-q", str(args.rate), "--insecure",
        "--no-tui", "-m", "POST", "-H", "Content-Type: application/json", "-D", args.review,
        "--output-format", "json", f"https://{HOST}:{port}/validate",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def summary(out):
    d = json.loads(out)
    s, p = d["summary"], d["latencyPercentiles"]
    return {
        "rps": round(s["requestsPerSec"]),
        "success": round(s["successRate"], 4),
        "p50_ms": round(p["p50"] * 1000, 3),
        "p99_ms": round(p["p99"] * 1000, 3),
        "status": d.get("statusCodeDistribution"),
        "errors": d.get("errorDistribution"),
    }


async def phase(args, server, port, name, fault, review):
    load = run_load(args, port)
    stop = asyncio.Event()
    task = asyncio.ensure_future(fault(stop)) if fault else None
    probe = asyncio.ensure_future(uid_probe(port, stop, review))
    out = await asyncio.get_running_loop().run_in_executor(None, load.communicate)
    stop.set()
    injected = await task if task else {}
    probed = await probe
    result = {"phase": name, "load": summary(out[0]), "fault": injected, "probe": probed,
              "rss_mib": round(rss_kib(server.pid) / 1024, 1),
              "server_fds": open_fds(server.pid),
              "alive": server.poll() is None}
    print(json.dumps(result), flush=True)
    return result


async def panic_phase(args, review, cert, key, work):
    """The floor server (its judge panics on kind Panic) under the steady load, beside
    panicking reviews: each is answered with the failure mode's answer (allowed, with a
    warning) and its uid; the steady load is not disturbed."""
    global SERVER_PID
    port = args.port + 1
    server = subprocess.Popen([args.floor, f"{HOST}:{port}", cert, key],
                              stderr=open(os.path.join(work, "floor.log"), "w"))
    SERVER_PID = server.pid
    for _ in range(100):
        try:
            _, w = await asyncio.open_connection(HOST, port, ssl=tls_context())
            w.close()
            break
        except OSError:
            await asyncio.sleep(0.2)
    try:
        stop = asyncio.Event()
        panics = asyncio.ensure_future(uid_probe(
            port, stop, review, per_second=40, kind="Panic", expect="validation panicked"))
        result = await phase(args, server, port, "a rule that panics (floor_server)", None, review)
        stop.set()
        result["panics"] = await panics
        result["alive"] = result["alive"] and server.poll() is None
        print(json.dumps({"phase": result["phase"], "panics": result["panics"]}), flush=True)
        return result
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kdv", required=True)
    ap.add_argument("--oha", required=True)
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--review", required=True)
    ap.add_argument("--rate", type=int, default=2000)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--port", type=int, default=18444)
    ap.add_argument("--floor", help="the floor_server example, for the panicking-rule phase")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="kdv-faults-")
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    shutil.copy(args.cert, cert)
    shutil.copy(args.key, key)
    server = subprocess.Popen(
        [args.kdv, "serve", "--listen", f"{HOST}:{args.port}", "--tls-cert", cert,
         "--tls-key", key, "--timeout", "2s", "--poll-interval", "500ms"],
        stderr=open(os.path.join(work, "serve.log"), "w"))
    port = args.port
    global SERVER_PID
    SERVER_PID = server.pid
    for _ in range(100):
        try:
            _, w = await asyncio.open_connection(HOST, port, ssl=tls_context())
            w.close()
            break
        except OSError:
            await asyncio.sleep(0.2)
    with open(args.review, "rb") as f:
        body = f.read()

    def rotate():
        for src, dst in ((args.cert, cert), (args.key, key)):
            tmp = dst + ".new"
            shutil.copy(src, tmp)
            os.replace(tmp, dst)

    phases = [
        ("baseline", None),
        ("slow headers", lambda s: slowloris(port, s)),
        ("5,000 idle connections", lambda s: idle(port, s)),
        ("mid-body disconnects", lambda s: mid_body(port, s, body)),
        ("reload every second", lambda s: every_second(s, lambda: server.send_signal(signal.SIGHUP))),
        ("certificate rotation every second", lambda s: every_second(s, rotate)),
        ("10 MiB bodies", lambda s: big_bodies(port, s)),
        ("bodies that stop arriving", lambda s: stalled_bodies(port, s, body)),
    ]
    results = []
    try:
        for name, fault in phases:
            results.append(await phase(args, server, port, name, fault, body))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            code = "killed"
        print(json.dumps({"serve_exit": code, "log": os.path.join(work, "serve.log")}))
    if args.floor:
        results.append(await panic_phase(args, body, cert, key, work))
    bad = [r["phase"] for r in results
           if not r["alive"] or r["load"]["success"] < 0.999
           or r["probe"]["uid_echoed"] != r["probe"]["sent"]
           or r.get("panics", {}).get("uid_echoed", 0) != r.get("panics", {}).get("sent", 0)]
    if bad:
        print("FAILED phases: " + ", ".join(bad), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
