#!/usr/bin/env bash
# The box on a remote host, the generator here (rig.sh: one sshd host, box):
# `stand run --host box=...` runs the scenario there (nginx in front of the
# scenario's backend, in the host's box, listening on the host's address,
# sampled there), and the load step "from": "controller" is sent from this
# machine through the host's ssh channel. The step's record is this
# machine's load (stand.load-fleet/1 with the one generator "controller"),
# its metrics are a local load's, the box's CPU per request included, and the
# requests really crossed the host's link: its eth0 received at least one
# packet per request (within 20 %) more than in the same run with "from": "host" (whose
# load stays on the host's loopback). A "from": "controller" step at a
# loopback URL (the host's own, which this machine cannot reach) fails its
# repetition with what to change; Ctrl-C during the load from here exits
# 130 within seconds with the interrupted repetition back; and nothing
# stays running here or on the host.
#   check_box_remote.sh STAND PLUGINS NET
set -uo pipefail
stand=$1 plugins=$2 net=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/test_lib.sh"
fleet_rig box 1 "$net"
fleet_push "box=ssh://root@$net.11"

port=$((18900 + RANDOM % 100))
requests=1200
scenario() {  # scenario FILE FROM URL_HOST
  python3 - "$1" "$2" "$3" "$port" "$requests" <<'PY'
import json, sys
path, origin, host, port, requests = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
json.dump({
    "schema_version": 1, "name": "box-remote", "plugins": ["nginx"], "allow_remote": True,
    "backend": {"body_bytes": 64}, "repetitions": 1, "sample_interval_ms": 100,
    "phases": [{"name": "run", "steps": [
        {"step": "install"},
        {"step": "configure", "knobs": {"listen": {"host": host, "port": port}}},
        {"step": "start"}, {"step": "wait_ready"},
        {"step": "load", "name": "outside", "from": origin, "duration_s": 3, "rate": requests / 3,
         "connections": 8, "keepalive": True},
        {"step": "stop"}, {"step": "wipe"}]}]}, open(path, "w"), indent=1)
PY
}
rx_packets() { "$here/rig.sh" exec "$dir/rig" 1 ip -s -j link show eth0 | python3 -c \
  'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["packets"])'; }
run() { "$stand" run "$@" --host "box=ssh://root@$net.11" --plugin-path "$plugins" "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err"; }

scenario "$dir/controller.json" controller "$net.11"
scenario "$dir/host.json" host "$net.11"
before=$(rx_packets)
run "$dir/host.json" --run-dir "$dir/run-host" || fail "the run with the load on the host failed (exit $?)"
middle=$(rx_packets)
run "$dir/controller.json" --run-dir "$dir/run" || fail "the run with the load from the controller failed (exit $?)"
after=$(rx_packets)
python3 - "$dir/run" "$dir/run-host" "$requests" "$((middle - before))" "$((after - middle))" <<'PY' ||
import glob, json, sys
run, run_host, requests, rx_host, rx_controller = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def rep_of(d):
    reps = glob.glob(f"{d}/hosts/box/reps/*.json")
    assert len(reps) == 1, reps
    rep = json.load(open(reps[0]))
    assert rep["status"] == "ok", (rep["status"], rep.get("reason"))
    return rep
rep, rep_host = rep_of(run), rep_of(run_host)
m = rep["metrics"]
assert abs(m["outside.rps"] - requests / 3) < 0.1 * requests / 3, m["outside.rps"]
assert m["outside.error_pct"] == 0, m
assert m["outside.box_cpu_us_per_req"] > 0 and m["outside.client_cpu_us_per_req"] > 0, m
load = rep["loads"]["outside"]
assert load["schema"] == "stand.load-fleet/1" and [g["name"] for g in load["generators"]] == ["controller"], load
done = load["generators"][0]["result"]["requests"]["completed"]
assert load["merged"]["requests"]["completed"] == done and done >= 0.95 * requests, done
assert "schema" not in rep_host["loads"]["outside"] or rep_host["loads"]["outside"]["schema"] != "stand.load-fleet/1"
# The requests crossed the host's link only when they came from here.
# (about one packet per request: ACKs ride on the next request; 0.8 leaves room for the ssh traffic's variation)
assert rx_controller - rx_host >= 0.8 * done, (rx_controller, rx_host, done)
summary = json.load(open(f"{run}/results.json"))
assert any(r["status"] == "ok" for r in summary["reps"]), summary["reps"]
print(f"ok: box on the host, load from here: {m['outside.rps']:.0f}/s p50 {m['outside.p50_ms']:.2f} ms, "
      f"box {m['outside.box_cpu_us_per_req']:.1f} us/req, client {m['outside.client_cpu_us_per_req']:.1f} us/req; "
      f"host eth0 received {rx_controller} packets (load from the host: {rx_host}) for {done} requests")
PY
  fail "the load from the controller is not as documented"

# Ctrl-C during the load from here: exit 130 soon, what was measured kept,
# no stand load left here and nothing left on the host.
sed 's/"duration_s": 3/"duration_s": 30/' "$dir/controller.json" >"$dir/long.json"
"$stand" run "$dir/long.json" --run-dir "$dir/run-int" --host "box=ssh://root@$net.11" --plugin-path "$plugins" \
  "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 1 300); do pgrep -f "stand-controller-load" >/dev/null && break; sleep 0.1; done
pgrep -f "stand-controller-load" >/dev/null || fail "the controller's load did not start"
sleep 1
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
code=$?
took_ms=$((($(date +%s%N) - start) / 1000000))
[[ $code == 130 ]] || fail "Ctrl-C during the controller's load exited $code (expected 130)"
((took_ms < 10000)) || fail "Ctrl-C during the controller's load took $took_ms ms"
pgrep -f "stand-controller-load" >/dev/null && fail "the controller's stand load is still running"
grep -qs '"status":"interrupted"' "$dir"/run-int/hosts/box/reps/*.json || fail "the interrupted repetition did not come back"
echo "ok: Ctrl-C during the load from here: exit 130 in $took_ms ms"

# The host's loopback is not the controller's: the repetition fails with what to change.
scenario "$dir/loopback.json" controller 127.0.0.1
run "$dir/loopback.json" --run-dir "$dir/run-lo"
code=$?
[[ $code == 1 ]] || fail "a load from the controller at the host's loopback exited $code (expected 1)"
python3 - "$dir/run-lo" <<'PY' || fail "the loopback refusal is not named"
import glob, json, sys
reps = glob.glob(f"{sys.argv[1]}/hosts/box/reps/*.json")
rep = json.load(open(reps[0]))
assert rep["status"] == "failed", rep["status"]
text = json.dumps(rep)
assert "own loopback, which the controller cannot reach" in text and "listen.host" in text, text[:2000]
PY
"$here/rig.sh" exec "$dir/rig" 1 ss -Htln "sport = :$port" | grep -q . && fail "nginx still listens on the host"
pgrep -f "$dir/rig/home_1/.stand" >/dev/null && fail "a process of the host's runs is still running"
echo "ok: the box on a remote host with the generator local; the host's loopback refused"
