#!/usr/bin/env bash
# A scenario's load step from generator hosts (rig.sh: two sshd hosts g1,
# g2; the box here): nginx in front of the host's backend, listening on the
# rig bridge's address, loaded once from this machine and then from both
# generators at once, and once more over a declared 30 ms link. The step's
# metrics come from the merged figures (rate, percentiles of the merged
# histograms, the box's CPU per request here), its record is the
# stand.load-fleet/1 document, and the 30 ms is in its latency. Refused
# before anything runs: a step naming a generator the scenario has not, a
# --generator the scenario has not, and a generator without this stand.
#   check_scenario_generators.sh STAND PLUGINS NET
set -uo pipefail
stand=$1 plugins=$2 net=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/test_lib.sh"
fleet_rig scen 3 "$net"
fleet_push "g1=ssh://root@$net.11" "g2=ssh://root@$net.12"

port=$((18700 + RANDOM % 200))
python3 - "$dir/scenario.json" "$net" "$port" <<'PY'
import json, sys
path, net, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
url = f"http://{net}.1:{port}/"
load = {"duration_s": 2, "connections": 8, "urls": [url]}
json.dump({
    "schema_version": 1, "name": "generators-nginx", "plugins": ["nginx"], "allow_remote": True,
    "backend": {"body_bytes": 64}, "repetitions": 1, "sample_interval_ms": 100,
    "generators": {"g1": f"ssh://root@{net}.11", "g2": f"ssh://root@{net}.12"},
    "phases": [{"name": "run", "steps": [
        {"step": "install"},
        {"step": "configure", "knobs": {"listen": {"host": f"{net}.1", "port": port}}},
        {"step": "start"}, {"step": "wait_ready"},
        dict(load, step="load", name="here", rate=400),
        dict(load, step="load", name="fleet", rate=400, generators=["g1", "g2"]),
        dict(load, step="load", name="far", rate=100, generators=["g1", "g2"], link="rtt=30ms"),
        {"step": "stop"}, {"step": "wipe"}]}]}, open(path, "w"), indent=1)
PY
run() { "$stand" run "$@" --plugin-path "$plugins" "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err"; }

# Refusals, before anything runs.
python3 - "$dir/scenario.json" "$dir/unknown.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["phases"][0]["steps"][5]["generators"] = ["g1", "g9"]
json.dump(s, open(sys.argv[2], "w"))
PY
run "$dir/unknown.json" --run-dir "$dir/r0"
[[ $? == 2 ]] && grep -q 'phases\[0\].steps\[5\].generators\[1\]' "$dir/err" && grep -q '"g9"' "$dir/err" ||
  fail "a step naming an unknown generator was not refused with its place"
run "$dir/scenario.json" --run-dir "$dir/r0" --generator "g7=ssh://root@$net.13"
[[ $? == 2 ]] && grep -q "\-\-generator g7: the scenario's \"generators\" have no host of that name" "$dir/err" ||
  fail "a --generator the scenario has not was not refused"
run "$dir/scenario.json" --run-dir "$dir/r0" --generator "g2=ssh://root@$net.13"
[[ $? == 2 ]] && grep -q "refused generators (nothing ran)" "$dir/err" && grep -q "stand fleet push" "$dir/err" ||
  fail "a generator without this stand was not refused"
[[ -e $dir/r0/reps ]] && fail "a refused run wrote repetitions"
run --check "$dir/scenario.json"
[[ $? == 0 ]] && grep -q "generator g1 (ssh://root@$net.11:22): ok" "$dir/out" || fail "--check did not check the generators"

run "$dir/scenario.json" --run-dir "$dir/run" || fail "the run with generators failed (exit $?)"
python3 - "$dir/run" <<'PY' || fail "the generators' load step is not as documented"
import glob, json, sys
reps = glob.glob(f"{sys.argv[1]}/reps/*.json")
assert len(reps) == 1, reps
rep = json.load(open(reps[0]))
assert rep["status"] == "ok", (rep["status"], rep.get("reason"))
m = rep["metrics"]
for name, rate in (("here", 400), ("fleet", 400), ("far", 100)):
    assert abs(m[f"{name}.rps"] - rate) < 0.1 * rate, (name, m[f"{name}.rps"])
    assert m[f"{name}.error_pct"] == 0, (name, m[f"{name}.error_pct"])
    assert m[f"{name}.box_cpu_us_per_req"] > 0, name
fleet = rep["loads"]["fleet"]
assert fleet["schema"] == "stand.load-fleet/1" and [g["name"] for g in fleet["generators"]] == ["g1", "g2"], fleet.keys()
done = [g["result"]["requests"]["completed"] for g in fleet["generators"]]
assert fleet["merged"]["requests"]["completed"] == sum(done) and min(done) > 300, done
assert abs(m["fleet.p50_ms"] * 1000 - fleet["merged"]["latency_us"]["all"]["p50"]) < 0.05 * m["fleet.p50_ms"] * 1000 + 5, \
    (m["fleet.p50_ms"], fleet["merged"]["latency_us"]["all"]["p50"])
# A generator that kept no schedule (started late, paced wrong) sends nearly every request late. This test runs
# beside others on 2 CPUs that the hypervisor also steals from: there 5-20 % of sends go over 1 ms late.
assert m["fleet.client_cpu_us_per_req"] > 0 and m["fleet.late_pct"] < 50, m
far = rep["loads"]["far"]
for g in far["generators"]:
    assert g["net"]["as_planned"] and g["net"]["removed"] and 30000 <= g["net"]["rtt_measured_us"] < 40000, g["net"]
assert m["far.p50_ms"] >= 30 and m["here.p50_ms"] < 10, (m["far.p50_ms"], m["here.p50_ms"])
print(f"ok: here {m['here.rps']:.0f}/s p50 {m['here.p50_ms']:.2f} ms; from g1+g2 {m['fleet.rps']:.0f}/s "
      f"p50 {m['fleet.p50_ms']:.2f} ms ({done}); over 30 ms {m['far.rps']:.0f}/s p50 {m['far.p50_ms']:.2f} ms, "
      f"box {m['fleet.box_cpu_us_per_req']:.1f} us/req")
PY
for i in 1 2; do
  "$here/rig.sh" exec "$dir/rig" "$i" ip -o link | grep -q stdl && fail "g$i kept the delay line's device"
  [[ -z $(ls -A "$dir/rig/home_$i/.stand/loads" 2>/dev/null) ]] || fail "g$i kept its load files"
done
echo "ok: a scenario's load step from two generators, merged; refusals before anything ran"
