#!/usr/bin/env bash
# Adaptive repetitions end to end: the stable plugin stops after min (narrow),
# the noisy one runs to max, both interleaved in the plan's shuffled order;
# run.json, summary.md, report.html and the progress output say how many ran and why;
# --resume on the finished run decides the same from the files, and on a run
# cut short re-runs exactly the unfinished repetitions and decides again.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-adaptive.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" >"$dir/out" 2>&1 || {
  cat "$dir/out"; echo "FAIL: the run failed"; exit 1; }
cat "$dir/out"
python3 - "$dir/run" <<'PY'
import json, os, sys
run = sys.argv[1]
info = json.load(open(os.path.join(run, "run.json")))
a = info["adaptive_repetitions"]
assert (a["min"], a["max"], a["metric"], a["ci_width_pct"]) == (3, 6, "tick.slept_ms", 5), a
stable, noisy = a["plugins"]["stable"], a["plugins"]["noisy"]
assert stable["state"] == "narrow" and stable["repetitions"] == 3, stable
assert stable["reason"].startswith("narrow: CI width ") and stable["reason"].endswith(" % ≤ 5 % after 3"), stable
assert stable["ci_width_pct"] <= 5, stable
assert noisy["state"] == "max reached" and noisy["repetitions"] == 6, noisy
assert noisy["reason"].startswith("max reached: CI width ") and noisy["reason"].endswith(" % > 5 % after 6"), noisy
assert noisy["ci_width_pct"] > 5, noisy
reps = sorted(f[:-5] for f in os.listdir(os.path.join(run, "reps")) if f.endswith(".json"))
assert reps == sorted([f"stable_r{i}" for i in (1, 2, 3)] + [f"noisy_r{i}" for i in range(1, 7)]), reps
for key in reps:
    assert json.load(open(os.path.join(run, "reps", key + ".json")))["status"] == "ok", key
# The order they ran in is the plan's, without the stable plugin's entries after it stopped.
expected = [p["key"] for p in info["plan"] if not (p["plugin"] == "stable" and p["rep"] > 3)]
ran = [line.split(": ")[0] for line in open(os.path.join(os.path.dirname(run), "out"))
       if line.split(": ")[0] in reps and line.split(": ")[1].startswith("ok")]
assert ran == expected, (ran, expected)
print("ok: stable stopped after 3 (narrow), noisy ran to 6 (max reached), in plan order")
PY
grep -q '^stable: stops, narrow: CI width .* % ≤ 5 % after 3 (tick.slept_ms)$' "$dir/out"
grep -q '^noisy: CI width .* % > 5 % after 3 of at most 6 (tick.slept_ms), going on$' "$dir/out"
grep -q '^noisy: stops, max reached: CI width .* % > 5 % after 6 (tick.slept_ms)$' "$dir/out"
grep -q '^## Adaptive repetitions$' "$dir/run/summary.md"
grep -q '^| stable | 3 | narrow: CI width .* % ≤ 5 % after 3 |$' "$dir/run/summary.md"
grep -q '^| noisy | 6 | max reached: CI width .* % > 5 % after 6 |$' "$dir/run/summary.md"
grep -q '"adaptive_repetitions"' "$dir/run/results.json"
grep -q '<tr><td>noisy</td><td class="num">6</td><td>max reached: CI width .* % &gt; 5 % after 6</td></tr>' "$dir/run/report.html"
cp "$dir/run/run.json" "$dir/run.json.first"

"$stand" run --resume "$dir/run" --plugin-path "$plugins" >"$dir/resume" 2>&1 || {
  cat "$dir/resume"; echo "FAIL: the resume failed"; exit 1; }
cat "$dir/resume"
grep -q '^0 repetitions ok, 0 failed, 9 already done$' "$dir/resume"
python3 - "$dir/run.json.first" "$dir/run/run.json" <<'PY'
import json, sys
first, again = (json.load(open(f))["adaptive_repetitions"] for f in sys.argv[1:])
assert first == again, (first, again)
print("ok: the resumed run decided the same")
PY

# As if the run had been cut short during stable_r3 and noisy_r5 (a repetition
# that did not finish is "running" on disk): the resume runs those two, noisy_r6
# after them, nothing of stable beyond 3, and ends in the same states.
python3 - "$dir/run" <<'PY'
import json, os, sys
for key in ("stable_r3", "noisy_r5"):
    f = os.path.join(sys.argv[1], "reps", key + ".json")
    rep = json.load(open(f)); rep["status"] = "running"; json.dump(rep, open(f, "w"))
os.remove(os.path.join(sys.argv[1], "reps", "noisy_r6.json"))
PY
"$stand" run --resume "$dir/run" --plugin-path "$plugins" >"$dir/cut" 2>&1 || {
  cat "$dir/cut"; echo "FAIL: the resume of the cut run failed"; exit 1; }
cat "$dir/cut"
grep -q '^3 repetitions ok, 0 failed, 6 already done$' "$dir/cut"
[[ "$(grep -E '^(stable|noisy)_r[0-9]+: ok$' "$dir/cut" | tr '\n' ' ')" == "stable_r3: ok noisy_r5: ok noisy_r6: ok " ]] || {
  echo "FAIL: the resume ran other repetitions than stable_r3, noisy_r5, noisy_r6"; exit 1; }
python3 - "$dir/run/run.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["adaptive_repetitions"]["plugins"]
assert (p["stable"]["state"], p["stable"]["repetitions"]) == ("narrow", 3), p
assert (p["noisy"]["state"], p["noisy"]["repetitions"]) == ("max reached", 6), p
print("ok: the cut run resumed with the unfinished repetitions only, same states")
PY
