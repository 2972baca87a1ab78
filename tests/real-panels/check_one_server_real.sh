#!/usr/bin/env bash
# scenarios/one-server.json, short, on the real x-ui v3.6.0 + Xray 26.7.28
# (build_3x_ui.sh; real.3x-ui.one_server), or on the 3x-ui double serving its
# inbound with the real Hysteria 2 server library (CONFIG of
# scenario.one_server_3x_ui_double): the adapter's own native lifecycle with a Hysteria 2
# inbound, stand's Hysteria 2 client through the real Xray to the scenario's
# sink, users added and removed through the real panel while traffic flows.
# The box gets one CPU, the sink and the generator the other (placement
# "auto", vcpu 1). Checks: data through the tunnel in B, every client of C
# connected, D's storm sent what it offered with admin latencies and the
# tunnel's drops and reconnects recorded, E's admin API back, F's traffic
# counts (1, 5 and 20 users) within 1 % of the bytes stand moved and settled,
# R's deleted and disabled credentials refused for new connections with no
# stream of the other users dropped; prints what D and E showed about the
# core (PIDs before and after) and whether R's established streams went on,
# measured, not assumed.
#   check_one_server_real.sh STAND SCENARIO PLUGIN_DIR CONFIG
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 config=$4
dir=$(mktemp -d /tmp/stand-one-server-real.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$(dirname "$0")/../relocate_ports.py" "$config" "$dir/config.json" >/dev/null  # ports something else holds, moved
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" --plugin "3x-ui=@$dir/config.json" \
  --param users=30 --param settle_s=1 --param idle_s=3 --param storm_s=8 --param storm_rate=50 \
  --param repetitions=1 --param sample_ms=200 --param tunnel_s=3 --param vcpu=1 --param placement=auto \
  --param clients=10 --param clients_s=4 --param ramp_s=1 --param restart_s=8 --param restart_after_s=2 \
  --param acc_settle_s=12 --param acc_mid=5 --param acc_many=20 --param acc_ramp_s=2 --param revoke_after_s=1 \
  --param revoke_watch_s=4
sed -n '/^| Metric/,/^$/p' "$dir/run/summary.md"
python3 - "$dir/run" <<'PY'
import json, sys
run = sys.argv[1]
rep = json.load(open(f"{run}/reps/3x-ui_r1.json"))
m, loads = rep["metrics"], rep["loads"]
bad = []
if rep["status"] != "ok": bad.append(f"status {rep['status']}")
for k in ("B1.gbit_s", "B16.gbit_s", "B64.gbit_s"):
    if not m.get(k, 0) > 0: bad.append(f"{k} = {m.get(k)}")
if m.get("C.connected") != 10: bad.append(f"C.connected = {m.get('C.connected')} of 10")
req, churn = loads["D_storm"]["requests"], loads["D_storm"]["churn"]
if req["sent"] != req["offered"] or req["offered"] == 0: bad.append(f"D storm offered {req['offered']}, sent {req['sent']}")
for k in ("D_storm.admin_add_p95_ms", "D_storm.admin_del_p95_ms", "D_storm.admin_call_p95_ms",
          "D_tunnel.streams_dropped", "D_tunnel.reconnects", "D_tunnel.processes_replaced",
          "E_restart.admin_api_seconds", "E_tunnel.streams_dropped", "E_tunnel.reconnects", "E_tunnel.processes_replaced"):
    if k not in m: bad.append(f"no {k}")
if churn["error_count"] or churn["adds"] < 4: bad.append(f"churn: {churn['adds']} adds, {churn['error_count']} errors")
for step in ("D_tunnel", "E_tunnel"):
    bp = loads[step]["box_processes"]
    print(f"{step}: streams dropped {m.get(step + '.streams_dropped'):.0f}, reconnects {m.get(step + '.reconnects'):.0f}, "
          f"processes before {[(p['name'], p['pid']) for p in bp['before']]}, after {[(p['name'], p['pid']) for p in bp['after']]}, "
          f"replaced {bp['replaced'] or 'none'}")
print(f"D: storm {req['offered']} offered / {req['sent']} sent; churn {churn['adds']} adds {churn['deletes']} deletes; "
      f"E: admin API back after {m['E_restart.admin_api_seconds']:.2f} s")
dash = loads["D2_storm"]["dashboard"]["requests"]
for r in dash:
    print(f"D2: dashboard {r['page']}/{r['name']} every {r['every_s']} s: {r['ok']} of {r['completed']} answered 2xx, "
          f"p95 {r.get('p95_ms', -1):.1f} ms")
    if r["completed"] == 0 or r["ok"] != r["completed"]: bad.append(f"D2: dashboard request {r['name']}: {r}")
if not m.get("D2_tunnel.gbit_s", 0) > 0 or "D2_storm.dash_p95_ms" not in m: bad.append("D2 not measured")
for step in ("F1", "F100", "F400"):
    if m.get(step + ".settled") != 1 or not 0.99 <= m.get(step + ".ratio", 0) <= 1.01:
        bad.append(f"{step}: ratio {m.get(step + '.ratio')}, settled {m.get(step + '.settled')}")
    print(f"{step}: {loads[step]['transfer']['clients']} users, panel/stand {m.get(step + '.ratio', 0):.4f} "
          f"(lowest {m.get(step + '.ratio_min', 0):.4f}), settled after {m.get(step + '.settle_s', -1):.1f} s")
for step in ("R_delete", "R_disable"):
    if step + ".refused_s" not in m: bad.append(f"{step}: the revoked credential was not refused")
    if m.get(step + ".others_streams_dropped") != 0: bad.append(f"{step}: other users' streams dropped")
    print(f"{step}: refused after {m.get(step + '.refused_s', -1):.3f} s, established streams "
          + ("still flowing" if m.get(step + ".still_flowing") == 1 else f"stopped after {m.get(step + '.streams_stopped_s', -1):.2f} s")
          + f", others dropped {m.get(step + '.others_streams_dropped', -1):.0f}")
if bad:
    print("FAILED: " + "; ".join(bad))
    sys.exit(1)
PY
