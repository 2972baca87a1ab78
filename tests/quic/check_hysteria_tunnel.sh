#!/usr/bin/env bash
# The Hysteria 2 client against the real Hysteria 2 server library (our Go
# test server, tests/hysteria2-server), relaying to `stand backend`'s sink:
#  - the throughput run moves data and times /small probes;
#  - user changes without restart-on-change drop no stream and cause no
#    reconnect; with restart-on-change they drop the streams and the client
#    reconnects;
#  - Salamander obfuscation, the certificate pin, and refused auth.
set -euo pipefail
stand=$1 server=$2
here=$(cd "$(dirname "$0")" && pwd)
[[ -x $server ]] || { echo "the Hysteria 2 test server was not built ($server): is Go installed?"; exit 77; }
dir=$(mktemp -d /tmp/stand-hysteria.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
  -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
pin=$(openssl x509 -in "$dir/cert.pem" -outform DER | sha256sum | cut -d' ' -f1)

"$stand" backend --listen 127.0.0.1:0 >"$dir/backend.json" 2>"$dir/backend.err" &
pids+=($!)
for _ in $(seq 50); do [[ -s $dir/backend.json ]] && break; sleep 0.1; done
sink=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["listen"])' "$dir/backend.json")

# start_server NAME [flags...]: sets udp_NAME and control_NAME
start_server() {
  local name=$1; shift
  echo alice >"$dir/users"
  "$server" --listen 127.0.0.1:0 --control 127.0.0.1:0 --cert "$dir/cert.pem" --key "$dir/key.pem" \
    --users "$dir/users" "$@" >"$dir/$name.out" 2>"$dir/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^ready' "$dir/$name.out" 2>/dev/null && break; sleep 0.1; done
  grep -q '^ready' "$dir/$name.out" || { echo "server $name did not start"; cat "$dir/$name.err"; exit 1; }
  eval "udp_$name=$(sed -n 's/^ready udp=\([^ ]*\) .*/\1/p' "$dir/$name.out")"
  eval "control_$name=$(sed -n 's/.* control=\([^ ]*\)$/\1/p' "$dir/$name.out")"
}
# churn CONTROL: two user changes during a run
churn() { (sleep 1; curl -sf -X PUT "http://$1/users/bob"; sleep 1; curl -sf -X PUT "http://$1/users/carol") & }

start_server steady
start_server restarting --restart-on-change
start_server obfs --obfs-password hunter22

run() { "$stand" tunnel "$@" --sink "$sink" --json; }
churn "$control_steady"
run "hysteria2://alice@$udp_steady/?insecure=1" --streams 2 -d 3s >"$dir/steady.json"
churn "$control_restarting"
run "hysteria2://alice@$udp_restarting/?insecure=1" --streams 2 -d 3s >"$dir/restarting.json"
run "hysteria2://alice@localhost:${udp_obfs##*:}/?obfs=salamander&obfs-password=hunter22&pinSHA256=$pin" \
  --cacert "$dir/cert.pem" -d 1s >"$dir/obfs.json"
set +e
run "hysteria2://mallory@$udp_steady/?insecure=1" -d 1s >"$dir/refused.json" 2>&1
refused_rc=$?
run "hysteria2://alice@$udp_steady/?insecure=1&pinSHA256=$(printf '0%.0s' $(seq 64))" -d 1s >"$dir/badpin.json" 2>&1
badpin_rc=$?
set -e
curl -sf "http://$control_steady/stats" >"$dir/steady.stats"
curl -sf "http://$control_restarting/stats" >"$dir/restarting.stats"

python3 - "$dir" "$refused_rc" "$badpin_rc" <<'PY'
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
refused_rc, badpin_rc = int(sys.argv[2]), int(sys.argv[3])
load = lambda n: json.loads((d / n).read_text())
steady, restarting, obfs = load("steady.json"), load("restarting.json"), load("obfs.json")
bad = []
for name, r in (("steady", steady), ("restarting", restarting), ("obfs", obfs)):
    if r["bytes"] <= 0: bad.append(f"{name}: no bytes moved")
    if r["probes"]["ok"] <= 0 or r["probes"]["latency_us"]["count"] != r["probes"]["ok"]:
        bad.append(f"{name}: probes {r['probes']}")
    if r["server_cc_rx"] != "auto" or r["server_udp"] != "true":
        bad.append(f"{name}: auth answer cc_rx={r['server_cc_rx']} udp={r['server_udp']}")
if steady["streams_dropped"] != 0 or steady["reconnects"] != 0 or steady["connection_losses"] != 0:
    bad.append(f"steady: dropped {steady['streams_dropped']}, reconnects {steady['reconnects']} (expected 0)")
if steady["probes"]["failed"] != 0: bad.append(f"steady: {steady['probes']['failed']} probes failed")
if restarting["streams_dropped"] < 2 or restarting["reconnects"] < 1:
    bad.append(f"restarting: dropped {restarting['streams_dropped']}, reconnects {restarting['reconnects']}")
if len(restarting["reconnect_gaps_ms"]) != restarting["reconnects"]: bad.append("restarting: a gap per reconnect")
stats_r = json.loads((d / "restarting.stats").read_text())
stats_s = json.loads((d / "steady.stats").read_text())
if stats_r["restarts"] != 2: bad.append(f"restarting server: restarts {stats_r['restarts']}")
if stats_s["restarts"] != 0 or stats_s["users"] != 3: bad.append(f"steady server: {stats_s}")
if not obfs["obfs"]: bad.append("obfs: not reported")
refused = (d / "refused.json").read_text()
if refused_rc != 1 or "authentication refused" not in refused or "404" not in refused:
    bad.append(f"refused: rc {refused_rc}: {refused[-300:]}")
badpin = (d / "badpin.json").read_text()
if badpin_rc != 1 or "pin mismatch" not in badpin: bad.append(f"bad pin: rc {badpin_rc}: {badpin[-300:]}")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"ok: steady {steady['mbit_mean']:.0f} Mbit/s, probes p50 {steady['probes']['latency_us']['p50']} us, "
      f"0 dropped; restart-on-change: {restarting['streams_dropped']} dropped, {restarting['reconnects']} reconnects "
      f"(gaps {', '.join(f'{g:.1f}' for g in restarting['reconnect_gaps_ms'])} ms); salamander {obfs['mbit_mean']:.0f} Mbit/s")
PY
