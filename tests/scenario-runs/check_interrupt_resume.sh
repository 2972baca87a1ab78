#!/usr/bin/env bash
# SIGINT during a run leaves no cgroup and no child process and exits 130;
# after SIGKILL, `stand run --resume` finishes the run and the repetitions
# that had finished are unchanged.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-interrupt.XXXXXX)
trap 'rm -rf "$dir"' EXIT
leftovers() {  # cgroups and processes of this run (run group "<id>.<pid>.<start>")
  find /sys/fs/cgroup -type d -path "*/stand/$(basename "$1")-*.$2.*" 2>/dev/null
  pgrep -f "stand __worker" -P "$2" 2>/dev/null || true
}

# --- SIGINT: clean stop
"$stand" run "$scenario" --run-dir "$dir/a" --plugin-path "$plugins" >"$dir/a.out" 2>&1 &
pid=$!
sleep 3
kill -INT $pid
set +e; wait $pid; code=$?; set -e
cat "$dir/a.out"
[[ $code -eq 130 ]] || { echo "SIGINT: expected exit 130, got $code"; exit 1; }
grep -q 'finish with: stand run --resume' "$dir/a.out"
left=$(leftovers "$dir/a" $pid)
[[ -z "$left" ]] || { echo "SIGINT left behind: $left"; exit 1; }
echo "ok: SIGINT -> 130, nothing left behind"

# --- SIGKILL, then resume
"$stand" run "$scenario" --run-dir "$dir/b" --plugin-path "$plugins" >"$dir/b.out" 2>&1 &
pid=$!
for _ in $(seq 100); do  # until the first repetition finished
  grep -q '"status":"ok"' "$dir/b/reps/fixture-flaky_r1.json" 2>/dev/null && break
  sleep 0.1
done
sleep 0.5
kill -KILL $pid
wait $pid 2>/dev/null || true
first=$(sha256sum "$dir/b/reps/fixture-flaky_r1.json")
"$stand" run --resume "$dir/b" --plugin-path "$plugins" >"$dir/b2.out" 2>&1 || { cat "$dir/b2.out"; exit 1; }
cat "$dir/b2.out"
grep -q 'skip fixture-flaky_r1' "$dir/b2.out"
[[ "$(sha256sum "$dir/b/reps/fixture-flaky_r1.json")" == "$first" ]] || { echo "resume changed a finished repetition"; exit 1; }
for r in 1 2 3 4; do grep -q '"status":"ok"' "$dir/b/reps/fixture-flaky_r$r.json"; done
grep -q 'n=4' "$dir/b/summary.md"
# the SIGKILLed run's groups were removed as stale by the resumed run
left=$(find /sys/fs/cgroup -type d -path "*/stand/b-*" 2>/dev/null)
[[ -z "$left" ]] || { echo "after resume, groups left behind: $left"; exit 1; }
echo "ok: SIGKILL + --resume finished the run, r1 unchanged"
