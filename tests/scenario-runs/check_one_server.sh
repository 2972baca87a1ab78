#!/usr/bin/env bash
# scenarios/one-server.json, short, against the panel test doubles, with
# the tunnel phases (B, C, and the tunnel halves of D, D2 and E) through the
# Hysteria 2 test server (tests/hysteria2-server, the real server library)
# given as tunnel_server: every repetition finishes, every row of the table
# has a value for every panel, the churn made no admin errors, the storm
# sent what it offered, the tunnels moved data next to the storm and the
# restart, every client connected, and D2's open dashboards had every
# request they polled answered. (The doubles do not carry the
# tunnel, so their box spends nothing on it: "Mbit/s per CPU-second" may be
# n/a here.) F and R need each user's own Hysteria 2 link, which these
# doubles' configs do not serve: with tunnel_elsewhere=skip they are
# recorded as not measured (scenario.one_server_3x_ui_double runs them on a
# double that serves its users).
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 configs=$4 server=$5; shift 5
[[ -x $server ]] || { echo "the Hysteria 2 test server was not built ($server): is Go installed?"; exit 77; }
dir=$(mktemp -d /tmp/stand-one-server.XXXXXX)
server_pid=
cleanup() { [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
  -days 2 -subj /CN=localhost 2>/dev/null
echo tunnel-user >"$dir/users"
"$server" --listen 127.0.0.1:0 --control 127.0.0.1:0 --cert "$dir/cert.pem" --key "$dir/key.pem" \
  --users "$dir/users" >"$dir/server.out" 2>"$dir/server.err" &
server_pid=$!
for _ in $(seq 100); do grep -q '^ready' "$dir/server.out" 2>/dev/null && break; sleep 0.1; done
udp=$(sed -n 's/^ready udp=\([^ ]*\) .*/\1/p' "$dir/server.out")
[[ -n $udp ]] || { echo "the Hysteria 2 test server did not start"; cat "$dir/server.err"; exit 1; }
args=()
for p in "$@"; do  # each config with the ports something else on this machine holds moved
  "$(dirname "$0")/../relocate_ports.py" "$configs/$p.json" "$dir/$p-config.json" >/dev/null
  args+=(--plugin "$p=@$dir/$p-config.json")
done
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${args[@]}" \
  --param users=20 --param settle_s=1 --param idle_s=2 --param storm_s=5 --param storm_rate=50 \
  --param repetitions=1 --param sample_ms=200 \
  --param "tunnel_server=hysteria2://tunnel-user@$udp/?insecure=1" --param tunnel_s=2 \
  --param clients=10 --param clients_s=3 --param ramp_s=1 --param restart_s=4 --param restart_after_s=1 \
  --param tunnel_elsewhere=skip --param acc_settle_s=1 --param acc_mid=5 --param acc_many=10 --param revoke_watch_s=2
sed -n '/^| Metric/,/^$/p' "$dir/run/summary.md"
# The test server never drops the tunnel, so there is no reconnect gap.
if grep -E '^\| [^|]+ \|.*\bn/a\b' "$dir/run/summary.md" | grep -v -e 'Mbit/s per CPU-second' -e 'reconnect gap' -e '^| F[0-9]*:' -e '^| R:'; then
  echo "summary.md has n/a cells (above)"
  exit 1
fi
python3 - "$dir/run" "$@" <<'PY'
import json, sys
run, panels = sys.argv[1], sys.argv[2:]
bad = False
for p in panels:
    rep = json.load(open(f"{run}/reps/{p}_r1.json"))
    m, churn = rep["metrics"], rep["loads"]["D_storm"]["churn"]
    req = rep["loads"]["D_storm"]["requests"]
    print(f"{p}: churn adds {churn['adds']} deletes {churn['deletes']} calls {churn['calls']} errors {churn['errors']};"
          f" storm offered {req['offered']} sent {req['sent']}; admin API back {m['E_restart.admin_api_seconds']:.2f} s")
    print(f"{p}: tunnels B1 {m['B1.gbit_s']:.2f} B64 {m['B64.gbit_s']:.2f} D {m['D_tunnel.gbit_s']:.2f}"
          f" E {m['E_tunnel.gbit_s']:.2f} Gbit/s; C connected {m['C.connected']:.0f}")
    if rep["status"] != "ok" or churn["error_count"] or churn["adds"] < 4 or req["sent"] != req["offered"]:
        bad = True
    for step in ("F1", "F100", "F400", "R_delete", "R_disable"):  # measured, or recorded as not measured and why
        why = rep["loads"].get(step, {}).get("not_measured")
        if why is None and step + (".ratio" if step[0] == "F" else ".call_ms") not in m:
            print(f"{p}: {step} neither measured nor recorded as not measured")
            bad = True
        elif why is not None:
            print(f"{p}: {step} not measured: {why}")
    dash = rep["loads"]["D2_storm"]["dashboard"]["requests"]
    print(f"{p}: D2 dashboard " + ", ".join(f"{r['name']} {r['ok']}/{r['completed']} 2xx" for r in dash))
    if not dash or any(r["completed"] == 0 or r["ok"] != r["completed"] for r in dash) or m["D2_storm.dash_error_pct"]:
        bad = True
    if min(m["B1.gbit_s"], m["B64.gbit_s"], m["D_tunnel.gbit_s"], m["E_tunnel.gbit_s"]) <= 0 or m["C.connected"] != 10:
        bad = True
    # The test server is not the panel's: neither the churn nor the restart touches it.
    if m["D_tunnel.streams_dropped"] or m["E_tunnel.streams_dropped"] or m["E_tunnel.reconnects"]:
        bad = True
sys.exit(1 if bad else 0)
PY
