#!/usr/bin/env bash
# The VPS battery (CI setting) on three real sshd hosts (rig.sh) in one run:
# `stand run scenarios/vps-battery.json --host h1=... --host h2=... --host h3=...`
# (one round) exits 0 with every host's 2 repetitions ok, and one report whose wide
# tables have a line per host and plugin (h1/disk ... h3/sysprobe) with a
# value in every cell, a Machine section with a column per host, and
# fleet.json naming the three hosts with their clock offsets; and since the
# rig's hosts are one machine, the finding that says so.
#   check_battery_hosts.sh STAND SCENARIO PLUGINS NET
set -uo pipefail
stand=$1 scenario=$2 plugins=$3 net=$4
here=$(cd "$(dirname "$0")" && pwd)
# Under /var/tmp, not /tmp (a tmpfs on some machines, which the disk probe
# refuses): each host's home is a directory here, and its test files go there.
dir=$(mktemp -d /var/tmp/stand-fleet-battery.XXXXXX)
cleanup() { "$here/rig.sh" down "$dir/rig" >/dev/null 2>&1; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/err; do [[ -f $f ]] && { echo "--- $f"; tail -40 "$f"; }; done; exit 1; }
"$here/rig.sh" up "$dir/rig" 3 "$net" || fail "the rig did not come up"
names=("h1=ssh://root@$net.11" "h2=ssh://root@$net.12" "h3=ssh://root@$net.13")
hosts=(); for n in "${names[@]}"; do hosts+=(--host "$n"); done
ssh_opts=(--ssh-config "$dir/rig/ssh_config")
"$stand" fleet push "${names[@]}" "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/push.out" 2>&1 ||
  { cat "$dir/push.out"; fail "push failed"; }

# One round instead of the scenario's three (the CI budget: the three hosts
# share this machine's two cores; scenario.vps_battery_ci runs all three
# rounds on one host). Everything else is the battery as shipped.
sed 's/"repetitions": 3,/"repetitions": 1,/' "$scenario" >"$dir/vps-battery.json"
grep -q '"repetitions": 1,' "$dir/vps-battery.json" || fail "could not set the battery to one round"
scenario=$dir/vps-battery.json
start=$(date +%s)
# dir=/root: each host's own home (the hosts share this machine's /var/tmp,
# and two disk probes never share a test file).
"$stand" run "$scenario" --run-dir "$dir/run" "${hosts[@]}" "${ssh_opts[@]}" --plugin-path "$plugins" --param dir=/root \
  --param duration_s=1 --param pause_s=0.2 --param size_mib=16 --param control_size_mib=32 \
  --param sevenzip_iterations=1 --param sevenzip_dictionary_log=18 >"$dir/out" 2>"$dir/err"
code=$?
elapsed=$(($(date +%s) - start))
echo "the battery on three hosts took ${elapsed} s (exit $code)"
[[ $code == 0 ]] || fail "the run exited $code"
summary=$dir/run/summary.md
cat "$summary"
for title in "Disk, main file: sequential, MB/s" "Disk, main file: random, IOPS" "Control: file larger than RAM" \
             "CPU and memory" "Crypto and archiver" "Pitfall checks" "Machine"; do
  grep -q "^## $title" "$summary" || fail "missing section: $title"
done
for h in h1 h2 h3; do
  for p in disk sysprobe; do
    n=$(grep -cE "^\| $h/$p \|" "$summary")
    ((n >= 2)) || fail "$h/$p has $n wide-table lines"
  done
done
grep -E '^\| h[123]/(disk|sysprobe) \|' "$summary" | grep -q 'n/a' && fail "a host's line has n/a cells"
machine=$(sed -n '/^## Machine/,/^## /p' "$summary")
grep -qE '^\| Fact \| h1 \| h2 \| h3 \|' <<<"$machine" || fail "the Machine section has no column per host"
grep -qE '^\| clock offset to the controller \|' <<<"$machine" || fail "the Machine section has no clock offsets"
python3 - "$dir/run" <<'PY' || fail "results.json or fleet.json is not as documented"
import json, sys
run = sys.argv[1]
r = json.load(open(f"{run}/results.json"))
reps = r["reps"]
assert len(reps) == 6, len(reps)
bad = [x["key"] for x in reps if x["status"] != "ok"]
assert not bad, bad
assert {x["key"].split(".")[0] for x in reps} == {"h1", "h2", "h3"}, {x["key"] for x in reps}
for x in reps:  # each repetition's findings name their host
    for f in x.get("findings", []):
        assert f["scope"].startswith(x["key"].split(".")[0] + "/"), (x["key"], f["scope"])
f = json.load(open(f"{run}/fleet.json"))
assert [h["name"] for h in f["hosts"]] == ["h1", "h2", "h3"], f
for h in f["hosts"]:
    assert h["problem"] == "" and h["exit_code"] == 0, h
    assert "clock_offset_ns" in h and h["clock_uncertainty_ns"] > 0, h
# The rig's hosts are one machine: the report says their numbers compete.
shared = [x for x in r["findings"] if x["id"] == "hosts-share-a-machine"]
assert len(shared) == 1 and shared[0]["scope"] == "hosts h1, h2 and h3", r["findings"]
meta = json.load(open(f"{run}/run.json"))
assert [h["name"] for h in meta["fleet_hosts"]] == ["h1", "h2", "h3"], meta.get("fleet_hosts")
PY
echo "ok: the battery (one round) on three sshd hosts in ${elapsed} s: one report, a column per host, 6 repetitions ok"
