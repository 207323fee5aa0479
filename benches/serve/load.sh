#!/usr/bin/env bash
# Load on loopback (issue 23): one AdmissionReview over TLS with keep-alive, 64 connections;
# saturation for SAT seconds, then a fixed 5,000 reviews/s for RATE seconds; peak RSS from
# /proc. Runs the transport floor (the floor_server example: a judge that does no work)
# and `kdv serve` one after the other, in one session, so the two are comparable.
#
#   benches/serve/load.sh --kdv target/release/kdv \
#       --floor target/release/examples/floor_server --oha PATH/oha \
#       --cert cert.pem --key key.pem --review review.json [--sat 60] [--rate 30]
set -euo pipefail
SAT=60 RATE=30 ADDR=127.0.0.1:18443
while [ $# -gt 0 ]; do
    case "$1" in
        --kdv) KDV=$2 ;; --floor) FLOOR=$2 ;; --oha) OHA=$2 ;; --cert) CERT=$2 ;;
        --key) KEY=$2 ;; --review) REVIEW=$2 ;; --sat) SAT=$2 ;; --rate) RATE=$2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift 2
done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

run() { # name, command...
    local name=$1; shift
    "$@" 2> "$OUT/$name.log" &
    local pid=$!
    for _ in $(seq 1 100); do
        curl -sk "https://$ADDR/readyz" > /dev/null 2>&1 && break
        sleep 0.2
    done
    local oha=("$OHA" --insecure --no-tui -m POST -H 'Content-Type: application/json'
        -D "$REVIEW" --output-format json -c 64)
    "${oha[@]}" -z "${SAT}s" "https://$ADDR/validate" > "$OUT/$name-sat.json"
    "${oha[@]}" -z "${RATE}s" -q 5000 "https://$ADDR/validate" > "$OUT/$name-rate.json"
    grep VmHWM "/proc/$pid/status" | awk '{print $2}' > "$OUT/$name-hwm"
    kill -INT "$pid"
    wait "$pid" || true
}

run floor "$FLOOR" "$ADDR" "$CERT" "$KEY"
run kdv "$KDV" serve --listen "$ADDR" --tls-cert "$CERT" --tls-key "$KEY"

python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
rows = {}
for name in ["floor", "kdv"]:
    row = {"peak_rss_mib": int(open(f"{out}/{name}-hwm").read()) / 1024}
    for phase in ["sat", "rate"]:
        d = json.load(open(f"{out}/{name}-{phase}.json"))
        s, p = d["summary"], d["latencyPercentiles"]
        row[phase] = {
            "rps": round(s["requestsPerSec"]),
            "success": s["successRate"],
            "p50_ms": round(p["p50"] * 1000, 3),
            "p95_ms": round(p["p95"] * 1000, 3),
            "p99_ms": round(p["p99"] * 1000, 3),
            "status": d.get("statusCodeDistribution"),
            # oha cancels the requests in flight when its time is up.
            "errors": d.get("errorDistribution"),
        }
    rows[name] = row
    print(json.dumps({name: row}))
print(json.dumps({"kdv/floor saturation": round(rows["kdv"]["sat"]["rps"] / rows["floor"]["sat"]["rps"], 3)}))
PY
