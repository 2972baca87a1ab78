#!/usr/bin/env bash
# A SIGSEGV in one repetition and a hang in another fail those two with their
# reasons; the other repetition completes and the run finishes.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-flaky.XXXXXX)
trap 'rm -rf "$dir"' EXIT
set +e
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" >"$dir/out" 2>&1
code=$?
set -e
cat "$dir/out"
[[ $code -eq 1 ]] || { echo "expected exit 1 (some repetitions failed), got $code"; exit 1; }
grep -q '"status":"failed"' "$dir/run/reps/fixture-flaky_r1.json"
grep -q 'crashed with SIGSEGV (signal 11) during lifecycle.start' "$dir/run/reps/fixture-flaky_r1.json"
grep -q '"status":"failed"' "$dir/run/reps/fixture-flaky_r2.json"
grep -q 'lifecycle.start did not return within 2000 ms' "$dir/run/reps/fixture-flaky_r2.json"
grep -q '"status":"ok"' "$dir/run/reps/fixture-flaky_r3.json"
grep -q '"tick.slept_ms"' "$dir/run/reps/fixture-flaky_r3.json"
grep -q '| slept (ms) | 1[0-9][0-9] (' "$dir/run/summary.md"
grep -q 'fixture-flaky_r1 | failed' "$dir/run/summary.md"
echo "ok: r1 crashed, r2 hung, r3 completed"
