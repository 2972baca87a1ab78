#!/usr/bin/env bash
# stand probe PLUGIN JOB: one disk job without a scenario file. --json gives
# IOPS and latency percentiles (schema stand.probe-run/1) with the probe's
# caveats, and the run directory has the repetition and the report; a tmpfs
# directory is refused by the probe (exit 1, the reason printed); an
# unknown job or param is refused before anything runs (exit 2, naming it).
#   check_probe_cmd.sh STAND PLUGINS
set -uo pipefail
stand=$1 plugins=$2
dir=$(mktemp -d /var/tmp/stand-probe-cmd.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/out "$dir"/err; do [[ -f $f ]] && { echo "--- $f"; tail -20 "$f"; }; done; exit 1; }
probe() { "$stand" probe "$@" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err"; }

"$stand" probe --help | grep -q "usage: stand probe PLUGIN JOB" || fail "no --help"
probe disk rnd4k-q32t1-read --param dir="$dir" --param duration_s=1 --param size_mib=16 --json --run-dir "$dir/run" ||
  fail "the probe failed (exit $?)"
python3 - "$dir/out" "$dir/run" <<'PY' || fail "the JSON is not as documented"
import json, os, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines  # stdout is the JSON alone
d = json.loads(lines[0])
assert d["schema"] == "stand.probe-run/1" and d["plugin"] == "disk" and d["job"] == "rnd4k-q32t1-read", d
assert d["status"] == "ok", d
m = d["metrics"]
assert m["iops"] > 0 and m["queue_depth"] == 32 and m["block_size"] == 4096, m
assert 0 < m["lat_p50_us"] <= m["lat_p90_us"] <= m["lat_p99_us"] <= m["lat_p999_us"] <= m["lat_max_us"], m
assert d["run_dir"] == sys.argv[2] and os.path.isfile(f"{sys.argv[2]}/summary.md"), d["run_dir"]
print(f"ok: rnd4k-q32t1-read {m['iops']:.0f} IOPS, p50 {m['lat_p50_us']:.0f} us, p99 {m['lat_p99_us']:.0f} us; "
      f"{len(d['notes'])} caveat(s)")
PY
probe disk rnd4k-q32t1-read --param dir="$dir" --param duration_s=1 --param size_mib=16 --run-dir "$dir/run-text" ||
  fail "the text run failed"
grep -q "^disk rnd4k-q32t1-read: ok" "$dir/out" && grep -qE "^  iops +[0-9]" "$dir/out" || fail "the text output has no iops line"

if [[ -d /dev/shm ]] && [[ $(stat -f -c %T /dev/shm) == tmpfs ]]; then
  mkdir -p "/dev/shm/stand-probe-cmd.$$"
  probe disk rnd4k-q32t1-read --param dir="/dev/shm/stand-probe-cmd.$$" --param duration_s=1 --run-dir "$dir/run-tmpfs"
  code=$?
  rmdir "/dev/shm/stand-probe-cmd.$$"
  [[ $code == 1 ]] && grep -q "failed (.*it is on tmpfs" "$dir/out" || fail "a tmpfs directory was not refused (exit $code)"
fi
probe disk nosuchjob --run-dir "$dir/run-none"
[[ $? == 2 ]] && grep -q "disk has no probe job 'nosuchjob' (it has: seq1m-q8t1-read" "$dir/err" || fail "an unknown job was not refused"
probe disk rnd4k-q32t1-read --param bogus=1 --run-dir "$dir/run-bogus"
[[ $? == 2 ]] && grep -q "refuses these params: bogus: unknown key" "$dir/err" || fail "an unknown param was not refused"
[[ -e $dir/run-none/reps || -e $dir/run-bogus/reps ]] && fail "a refused probe wrote repetitions"
echo "ok: stand probe"
