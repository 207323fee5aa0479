#!/usr/bin/env python3
"""Latency of `kdv lsp`'s diagnostics after an edit (issue 24), as an editor sees it.

Drives `kdv lsp` over stdio: opens a document, then sends EDITS single-character edits one
after the other, each time waiting for the diagnostics published for the new version, and
reports the time from sending `didChange` to receiving them (p50, p95, max) and the
server's peak RSS. Two documents: a large real CRD (Gateway API's HTTPRoute, 6,919 lines,
178 CEL rules; every other edit breaks a rule, so the diagnostics alternate between none and
one) and a Deployment manifest (every other edit misspells a field).

    python3 benches/lsp/latency.py --kdv target/release/kdv [--edits 200]

Run it on an idle machine (no build, benchmark or fuzzer beside it).
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CRD = os.path.join(ROOT, "testdata/gateway-api/gateway.networking.k8s.io_httproutes.yaml")
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        imagePullPolicy: Always
        ports:
        - containerPort: 80
          name: http
        resources:
          requests: {cpu: 100m, memory: 64Mi}
          limits: {memory: 128Mi}
        readinessProbe:
          httpGet: {path: /healthz, port: http}
"""


class Server:
    def __init__(self, kdv, root):
        self.p = subprocess.Popen([kdv, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd=root)
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version):
        while True:
            m = self.read()
            p = m.get("params", {})
            if m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri \
                    and p.get("version") == version:
                return p["diagnostics"]

    def rss_mib(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        return self.p.wait(timeout=30)


def measure(server, uri, text, line, column, bad, good, edits):
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    first = server.diagnostics(uri, 1)
    times, counts = [], set()
    for v in range(2, edits + 2):
        letter = bad if v % 2 == 0 else good
        start = time.perf_counter()
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": v},
            "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                          "end": {"line": line, "character": column + 1}},
                                "text": letter}]})
        found = server.diagnostics(uri, v)
        times.append((time.perf_counter() - start) * 1000)
        counts.add(len(found))
    times.sort()
    return {
        "lines": text.count("\n"),
        "initial_diagnostics": len(first),
        "diagnostics_seen": sorted(counts),
        "p50_ms": round(times[len(times) // 2], 2),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 2),
        "max_ms": round(times[-1], 2),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kdv", required=True)
    ap.add_argument("--edits", type=int, default=200)
    args = ap.parse_args()
    root = os.path.join("/tmp", f"kdv-lsp-latency-{os.getpid()}")
    os.makedirs(root, exist_ok=True)
    server = Server(os.path.abspath(args.kdv), root)
    server.request("initialize", {"processId": None, "rootUri": f"file://{root}",
                                  "capabilities": {}, "initializationOptions": {}})
    server.notify("initialized", {})
    crd = open(CRD).read()
    # The first rule that reads a field of self: its `self.` becomes `selF.` and back.
    lines = crd.split("\n")
    line = next(i for i, l in enumerate(lines) if "rule:" in l and "self." in l)
    column = lines[line].index("self.") + 3
    results = {"crd": measure(server, f"file://{root}/httproutes.yaml", crd, line, column,
                              "F", "f", args.edits)}
    mline = DEPLOYMENT.split("\n").index("        imagePullPolicy: Always")
    # `imagePullPolicy` becomes `imagePullPolicx` and back.
    results["manifest"] = measure(server, f"file://{root}/deploy.yaml", DEPLOYMENT, mline, 22,
                                  "x", "y", args.edits)
    results["peak_rss_mib"] = round(server.rss_mib(), 1)
    results["exit"] = server.stop()
    print(json.dumps(results))
    if results["exit"] != 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
