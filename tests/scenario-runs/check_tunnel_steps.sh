#!/usr/bin/env bash
# tunnel.json through `stand run` against two real Hysteria 2 servers (our
# Go test server on the real server library): the throughput step moves
# data and times probes; many_clients connects every client; on the server
# that restarts on user changes (changed every second meanwhile) the E step
# counts dropped streams and reconnects and reports the finding, while its
# `during` step runs alongside.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 server=$4
[[ -x $server ]] || { echo "the Hysteria 2 test server was not built ($server): is Go installed?"; exit 77; }
dir=$(mktemp -d /tmp/stand-tunnel-steps.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
  -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
echo alice >"$dir/users"
start_server() {
  local name=$1; shift
  "$server" --listen 127.0.0.1:0 --control 127.0.0.1:0 --cert "$dir/cert.pem" --key "$dir/key.pem" \
    --users "$dir/users" "$@" >"$dir/$name.out" 2>"$dir/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^ready' "$dir/$name.out" 2>/dev/null && break; sleep 0.1; done
  grep -q '^ready' "$dir/$name.out" || { echo "server $name did not start"; cat "$dir/$name.err"; exit 1; }
}
start_server steady
start_server restarting --restart-on-change
udp() { sed -n 's/^ready udp=\([^ ]*\) .*/\1/p' "$dir/$1.out"; }
control=$(sed -n 's/.* control=\([^ ]*\)$/\1/p' "$dir/restarting.out")
(i=0; while sleep 1; do i=$((i + 1)); curl -sf -X PUT "http://$control/users/churn$i" || true; done) &
pids+=($!)
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" \
  --param "server=hysteria2://alice@$(udp steady)/?insecure=1" \
  --param "server_restarting=hysteria2://alice@$(udp restarting)/?insecure=1" \
  --param "storm_url=http://$(sed -n 's/.* control=\([^ ]*\)$/\1/p' "$dir/steady.out")/ready"
cat "$dir/run/summary.md" | sed -n '/^## Tunnel/,/^## /p'
python3 - "$dir/run/reps/fixture-flaky_r1.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
bad = []
if rep["status"] != "ok": bad.append(f"status {rep['status']}: {rep.get('reason')}")
m = rep.get("metrics", {})
def need(key, ok, what):
    v = m.get(key)
    if not isinstance(v, (int, float)) or not ok(v): bad.append(f"{key} = {v!r}, expected {what}")
need("B2.gbit_s", lambda v: v > 0, "> 0")
need("B2.probe_p95_ms", lambda v: v > 0, "> 0")
need("B2.streams_dropped", lambda v: v == 0, "0")
need("B2.reconnects", lambda v: v == 0, "0")
need("B2.box_cpu_pct", lambda v: v >= 0, "a box window")
need("C.connected", lambda v: v == 20, "20")
need("C.handshake_failures", lambda v: v == 0, "0")
need("C.requests_ok", lambda v: v > 20, "> 20")
need("C.handshake_p95_ms", lambda v: v > 0, "> 0")
need("E.streams_dropped", lambda v: v >= 2, ">= 2")
need("E.reconnects", lambda v: v >= 1, ">= 1")
need("tick.slept_ms", lambda v: v >= 500, ">= 500 (the during step ran)")
need("storm.rps", lambda v: v > 0, "> 0 (the load beside B2 ran)")
# The backend's connections beside B2 are the tunnel's probes, not the load's:
# the plugin is no proxy, so the load neither reads them nor says "the proxy".
if [k for k in m if k.startswith("storm.backend_")]: bad.append(f"backend metrics on a load through no proxy: {sorted(m)}")
kinds = [f["id"] for f in rep.get("findings", [])]
if "no-backend-reuse" in kinds: bad.append(f"no-backend-reuse on a load through no proxy: {rep['findings']}")
if "tunnel-disrupted" not in kinds: bad.append(f"no tunnel-disrupted finding: {kinds}")
if any("B2" in f.get("scope", "") and f["id"] == "tunnel-disrupted" for f in rep.get("findings", [])):
    bad.append("B2 reported as disrupted")
for step in ("B2", "C", "E"):
    if step not in rep.get("loads", {}): bad.append(f"no load record for {step}")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad)); sys.exit(1)
print(f"ok: B2 {m['B2.gbit_s']:.2f} Gbit/s, C {m['C.connected']:.0f} connected, "
      f"E {m['E.streams_dropped']:.0f} dropped / {m['E.reconnects']:.0f} reconnects")
PY
