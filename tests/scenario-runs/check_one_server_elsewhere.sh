#!/usr/bin/env bash
# scenarios/one-server.json, short, on the PasarGuard double without a node:
# its links name node1.bench.test, a server not on this machine. With
# --param tunnel_elsewhere=skip the repetition finishes: each tunnel step is
# recorded as not measured with why (finding tunnel-not-here), D's storm and
# churn and E's restart are measured all the same. Without it, B1 fails the
# repetition naming the option.
#   check_one_server_elsewhere.sh STAND SCENARIO PLUGIN_DIR CONFIG
set -uo pipefail
stand=$1 scenario=$2 plugins=$3 double_config=$4
dir=$(mktemp -d /tmp/stand-one-server-elsewhere.XXXXXX)
trap 'rm -rf "$dir"' EXIT
config=$dir/pasarguard.json  # the double's config with Hysteria 2 users (the double binds no inbound)
python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c.update(protocol="hysteria2", inbound_port=28295); json.dump(c, open(sys.argv[2], "w"))' \
  "$double_config" "$config"
"$(dirname "$0")/../relocate_ports.py" "$config" "$config" >/dev/null  # ports something else on this machine holds, moved
short=(--param users=20 --param settle_s=1 --param idle_s=2 --param storm_s=4 --param storm_rate=20
       --param repetitions=1 --param sample_ms=200 --param tunnel_s=2 --param clients=5 --param clients_s=3
       --param ramp_s=1 --param restart_s=4 --param restart_after_s=1 --param acc_settle_s=1 --param acc_mid=5
       --param acc_many=10 --param revoke_watch_s=2)
"$stand" run "$scenario" --run-dir "$dir/skip" --plugin-path "$plugins" --plugin "pasarguard=@$config" "${short[@]}" \
  --param tunnel_elsewhere=skip > "$dir/skip.out" 2>&1
status=$?
[[ $status -eq 0 ]] || { echo "the run with tunnel_elsewhere=skip exited $status"; tail -20 "$dir/skip.out"; exit 1; }
python3 - "$dir/skip" <<'PY' || exit 1
import json, sys
rep = json.load(open(f"{sys.argv[1]}/reps/pasarguard_r1.json"))
m, loads = rep["metrics"], rep["loads"]
bad = []
steps = (("B1", "gbit_s"), ("B16", "gbit_s"), ("B64", "gbit_s"), ("C", "connected"), ("D_tunnel", "gbit_s"),
         ("D2_tunnel", "gbit_s"), ("E_tunnel", "gbit_s"), ("F1", "ratio"), ("F100", "ratio"), ("F400", "ratio"), ("R_delete", "call_ms"),
         ("R_disable", "call_ms"))
for step, metric in steps:
    why = loads.get(step, {}).get("not_measured", "")
    if "node1.bench.test" not in why: bad.append(f"{step}: not_measured is {why!r}")
    if f"{step}.{metric}" in m: bad.append(f"{step}.{metric} recorded though the step was not measured")
for k in ("D_storm.rps", "D_storm.admin_add_p95_ms", "D2_storm.dash_p95_ms", "E_restart.admin_api_seconds"):
    if k not in m: bad.append(f"no {k}")
found = [f for f in rep.get("findings", []) if f["id"] == "tunnel-not-here"]
if len(found) != len(steps): bad.append(f"{len(found)} tunnel-not-here findings, expected {len(steps)}")
if bad: sys.exit("; ".join(bad))
print("ok: tunnels not measured with why; D_storm.rps %.0f, E admin API back after %.2f s"
      % (m["D_storm.rps"], m["E_restart.admin_api_seconds"]))
PY
"$stand" run "$scenario" --run-dir "$dir/fail" --plugin-path "$plugins" --plugin "pasarguard=@$config" "${short[@]}" \
  > "$dir/fail.out" 2>&1
status=$?
if [[ $status -eq 0 ]] || ! grep -q "node1.bench.test" "$dir/fail.out"; then
  echo "without tunnel_elsewhere=skip the run exited $status, expected a failure naming node1.bench.test"
  tail -20 "$dir/fail.out"; exit 1
fi
echo "ok: without it the repetition fails naming the server"
