#!/usr/bin/env bash
# stand report RUN_DIR writes results.json, per_rep.csv, summary.md and
# report.html from run.json + reps/ + samples/ alone; stand compare reads two
# such directories; a directory without run.json is refused with exit 2.
set -euo pipefail
stand=$1 fixture=$2
dir=$(mktemp -d /tmp/stand-report.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cp -r "$fixture" "$dir/a"
cp -r "$fixture" "$dir/b"
"$stand" report "$dir/a" > "$dir/out"
for f in results.json per_rep.csv summary.md report.html; do
  grep -qx "$dir/a/$f" "$dir/out" || { echo "report did not list $f"; cat "$dir/out"; exit 1; }
  [[ -s "$dir/a/$f" ]] || { echo "$f is empty"; exit 1; }
done
head -1 "$dir/a/per_rep.csv" | grep -qx 'plugin,rep,metric,value'
grep -q '^| ' "$dir/a/summary.md"
grep -q '<svg' "$dir/a/report.html"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['schema_version']==1 and d['reps'], d.keys()" "$dir/a/results.json"

# Same data on both sides: every ratio is 1 and every p is 1.
"$stand" compare "$dir/a" "$dir/b" --json > "$dir/cmp.json" 2> "$dir/cmp.err"
python3 - "$dir/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"], "no rows"
for r in d["rows"]:
    assert r["p_value"] == 1, r
    assert r["ratio"] is None or abs(r["ratio"] - 1) < 1e-12, r
    assert r["few_reps"], r  # the fixture has 2 repetitions per plugin
print(len(d["rows"]), "rows compared")
PY
grep -q 'fewer than 5 repetitions' "$dir/cmp.err"
"$stand" compare "$dir/a" "$dir/b" --metric cold_start.seconds | grep -q '^| nginx | cold_start.seconds | '

set +e
"$stand" report "$dir" 2> "$dir/err"; code=$?
set -e
[[ $code -eq 2 ]] && grep -q 'no run.json' "$dir/err" || { echo "expected exit 2 naming run.json, got $code"; cat "$dir/err"; exit 1; }
echo ok
