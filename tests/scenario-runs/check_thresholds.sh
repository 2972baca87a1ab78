#!/usr/bin/env bash
# Thresholds and regression gates end to end (scenarios/README.md,
# "Thresholds"; stand compare --fail-if):
# - a run within its thresholds exits 0 and its JUnit has 3 passing cases;
# - the same run made 2x slower exits 99, its JUnit (read by Debian's
#   python3-junitparser) has one failure per crossed threshold (the median
#   and every-repetition ones, not the interval one), summary.md starts
#   with its verdict and the thresholds' tally;
# - abort_on_fail stops the run after the first repetition that crossed;
# - --fail-if passes two runs of the same fixture, fails the second made
#   20 % slower, and cannot decide with 3 repetitions a side (exit 99 each,
#   saying why).
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
py=/usr/bin/python3  # Debian's python3-junitparser is installed for Debian's Python
dir=$(mktemp -d /tmp/stand-thresholds.XXXXXX)
trap 'rm -rf "$dir"' EXIT
run() {  # NAME EXPECTED_EXIT ARGS...
  local name=$1 want=$2 code=0
  shift 2
  "$stand" run "$scenario" --run-dir "$dir/$name" --plugin-path "$plugins" --junit "$dir/$name.xml" "$@" \
    >"$dir/$name.out" 2>&1 || code=$?
  if [[ $code -ne $want ]]; then cat "$dir/$name.out"; echo "FAIL: $name exited $code, expected $want"; exit 1; fi
}
junit() {  # FILE TESTS FAILURES ERRORS: checked with a JUnit parser
  "$py" - "$@" <<'PY'
import sys
from junitparser import JUnitXml, Failure, Error
xml = JUnitXml.fromfile(sys.argv[1])
cases = [c for suite in xml for c in suite]
failures = [c.name for c in cases if any(isinstance(r, Failure) for r in c.result)]
errors = [c.name for c in cases if any(isinstance(r, Error) for r in c.result)]
want = tuple(int(x) for x in sys.argv[2:5])
assert (len(cases), len(failures), len(errors)) == want, (len(cases), failures, errors, want)
assert all(c.classname == "fixture-flaky" for c in cases), [c.classname for c in cases]
print(f"ok: {sys.argv[1].rsplit('/', 1)[1]}: {len(cases)} cases, failing: {failures + errors}")
PY
}

# --junit without thresholds, or to a FIFO: refused before anything is measured.
code=0; "$stand" run "$(dirname "$scenario")/flaky.json" --run-dir "$dir/none" --plugin-path "$plugins" \
  --junit "$dir/none.xml" 2>"$dir/none.err" || code=$?
[[ $code -eq 2 ]] && grep -q 'the scenario has no "thresholds"' "$dir/none.err" && [[ ! -e $dir/none ]] ||
  { cat "$dir/none.err"; echo "FAIL: --junit without thresholds exited $code"; exit 1; }
mkfifo "$dir/fifo"
code=0; "$stand" run "$scenario" --run-dir "$dir/fifo-run" --plugin-path "$plugins" --junit "$dir/fifo" \
  2>"$dir/fifo.err" || code=$?
[[ $code -eq 2 ]] && grep -q "fifo: not a regular file" "$dir/fifo.err" && [[ ! -e $dir/fifo-run ]] ||
  { cat "$dir/fifo.err"; echo "FAIL: --junit to a FIFO exited $code"; exit 1; }

run within 0
junit "$dir/within.xml" 3 0 0
head -1 "$dir/within/summary.md" | grep -q '^\*\*Verdict: '
sed -n 5p "$dir/within/summary.md" | grep -q '^# thresholds$'
grep -q '^\*\*Thresholds: 3 passed (of 3)\.\*\*$' "$dir/within/summary.md"

run slower 99 --param sleep_ms=200
junit "$dir/slower.xml" 3 2 0
grep -q 'Thresholds: 1 passed, 2 crossed (of 3)' "$dir/slower.out"
grep -q '^  fixture-flaky: tick.slept_ms < 150 (median): crossed, median 20[0-9]' "$dir/slower.out"
grep -q '^  fixture-flaky: every tick under 160 ms: crossed, 6 of 6 repetitions crossed' "$dir/slower.out"
grep -q '^\*\*Thresholds: 1 passed, 2 crossed (of 3): ' "$dir/slower/summary.md"
grep -q '^## Thresholds$' "$dir/slower/summary.md"
grep -q '<section id="thresholds">' "$dir/slower/report.html"
"$py" - "$dir/slower/results.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["thresholds"]
assert [x["status"] for x in t] == ["crossed", "crossed", "passed"], t
assert t[1]["crossed_reps"] == [1, 2, 3, 4, 5, 6], t[1]
assert t[2]["n"] == 6 and t[2]["value"] > 50, t[2]
print("ok: results.json thresholds")
PY
# stand report says the same from the files.
code=0; "$stand" report "$dir/slower" --junit "$dir/again.xml" >/dev/null 2>&1 || code=$?
[[ $code -eq 99 ]] || { echo "FAIL: stand report exited $code, expected 99"; exit 1; }
junit "$dir/again.xml" 3 2 0

run aborted 99 --param sleep_ms=200 --param abort=true
ls "$dir/aborted/reps" | grep -qx 'fixture-flaky_r1.json'
[[ $(ls "$dir/aborted/reps" | wc -l) -eq 1 ]] || { ls "$dir/aborted/reps"; echo "FAIL: the run went on"; exit 1; }
grep -q 'stand: run stopped: threshold crossed (abort_on_fail): fixture-flaky: every tick under 160 ms: crossed' "$dir/aborted.out"
grep -q 'The run stopped early: threshold crossed' "$dir/aborted/summary.md"
echo "ok: abort_on_fail stopped the run after 1 of 6 repetitions"

# Regression gates: the baseline is the run within its thresholds.
run same 0
run slower20 0 --param sleep_ms=120
gate='tick.slept_ms > +5%'
"$stand" compare "$dir/within" "$dir/same" --fail-if "$gate" --junit "$dir/same-gates.xml" >"$dir/same-gates.out"
grep -q '| tick.slept_ms > +5% | fixture-flaky | tick.slept_ms | passed |' "$dir/same-gates.out"
junit "$dir/same-gates.xml" 1 0 0
code=0; "$stand" compare "$dir/within" "$dir/slower20" --fail-if "$gate" --junit "$dir/slow-gates.xml" \
  >"$dir/slow-gates.out" 2>&1 || code=$?
[[ $code -eq 99 ]] || { cat "$dir/slow-gates.out"; echo "FAIL: the gate on a 20 % slower run exited $code"; exit 1; }
grep -q '| tick.slept_ms > +5% | fixture-flaky | tick.slept_ms | \*\*failed\*\* | NEW/BASE 1\.[12]' "$dir/slow-gates.out"
junit "$dir/slow-gates.xml" 1 1 0
# An absolute tolerance in the metric's unit: 20 ms slower is beyond +5 ms, within +50 ms.
code=0; "$stand" compare "$dir/within" "$dir/slower20" --fail-if 'tick.* > +5' >/dev/null 2>&1 || code=$?
[[ $code -eq 99 ]] || { echo "FAIL: +5 ms absolute exited $code"; exit 1; }
"$stand" compare "$dir/within" "$dir/slower20" --fail-if 'tick.* > +50' >/dev/null
# Three repetitions a side: no decision, and the gate says why.
run few 99 --param reps=3  # its "ci" threshold cannot be evaluated on 3 either
code=0; "$stand" compare "$dir/within" "$dir/few" --fail-if "$gate" --junit "$dir/few-gates.xml" \
  >"$dir/few-gates.out" 2>&1 || code=$?
[[ $code -eq 99 ]] || { cat "$dir/few-gates.out"; echo "FAIL: an undecidable gate exited $code"; exit 1; }
grep -q 'undecided\*\* | cannot decide: 6 repetitions in BASE, 3 in NEW' "$dir/few-gates.out"
junit "$dir/few-gates.xml" 1 0 1
# Mistakes in a gate are refused, naming it.
code=0; "$stand" compare "$dir/within" "$dir/same" --fail-if 'tick.slept_ms > -5%' 2>"$dir/bad.err" >/dev/null || code=$?
[[ $code -eq 2 ]] && grep -q "fail-if 'tick.slept_ms > -5%': '>' with a change of sign '-'" "$dir/bad.err"
code=0; "$stand" compare "$dir/within" "$dir/same" --fail-if 'nope.* > +5%' 2>"$dir/bad.err" >/dev/null || code=$?
[[ $code -eq 2 ]] && grep -q "no metric measured by both runs matches nope" "$dir/bad.err"
echo "ok: gates pass the same run, fail 20 % slower, cannot decide on 3 repetitions"
