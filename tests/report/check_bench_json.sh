#!/usr/bin/env bash
# stand report RUN_DIR --bench-json FORMAT on a fixture run: the three files
# as a CI step would write them, what was left out on standard error, and the
# refusals (unknown format, no results.json) with exit 2. The formats
# themselves are checked against the published schema and examples in the
# unit test `bench export: ...` (tests/data/bench-formats/).
set -euo pipefail
stand=$1 fixture=$2
dir=$(mktemp -d /tmp/stand-bench-json.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cp -r "$fixture" "$dir/run"

# The fixture's scenario declares no direction; say which way two rows are better.
python3 - "$dir/run/run.json" <<'PY'
import json, sys
path = sys.argv[1]
run = json.load(open(path))
for table in run["tables"]:
    for row in table["rows"]:
        if row["metric"] == "keepalive.p99_ms":
            row.update(better="lower", unit="ms")
        if row["metric"] == "keepalive.rps":
            row.update(better="higher", unit="requests/s")
json.dump(run, open(path, "w"))
PY

set +e
"$stand" report "$dir/run" --bench-json bmf 2> "$dir/err"; code=$?
set -e
[[ $code -eq 2 ]] && grep -q 'no results.json' "$dir/err" || { echo "expected exit 2 naming results.json, got $code"; cat "$dir/err"; exit 1; }

"$stand" report "$dir/run" > /dev/null
for format in bmf customSmallerIsBetter customBiggerIsBetter; do
  "$stand" report "$dir/run" --bench-json "$format" --output "$dir/$format.json" 2> "$dir/$format.err"
  grep -q "values as $format in $dir/$format.json" "$dir/$format.err" || { cat "$dir/$format.err"; exit 1; }
done
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
bmf = json.load(open(f"{d}/bmf.json"))
assert "nginx" in bmf and "nginx-2w" in bmf, bmf.keys()
m = bmf["nginx"]["keepalive.p99_ms"]
assert set(m) == {"value", "lower_value", "upper_value"} and m["lower_value"] <= m["value"] <= m["upper_value"], m
smaller = json.load(open(f"{d}/customSmallerIsBetter.json"))
assert smaller and {e["name"].split("/", 1)[1] for e in smaller} == {"keepalive.p99_ms"}, smaller
assert all(e["unit"] == "ms" and isinstance(e["value"], (int, float)) for e in smaller), smaller
bigger = json.load(open(f"{d}/customBiggerIsBetter.json"))
assert bigger and {e["name"].split("/", 1)[1] for e in bigger} == {"keepalive.rps"}, bigger
print(len(bmf), "benchmarks;", len(smaller), "smaller-is-better and", len(bigger), "bigger-is-better entries")
PY
grep -q 'left out, higher is better (customBiggerIsBetter): keepalive.rps' "$dir/customSmallerIsBetter.err"
grep -q "left out, no direction declared (a table row's \"better\" in the scenario): .*cold_start.seconds" "$dir/customSmallerIsBetter.err"

# Standard output when there is no --output; an unknown format is refused naming the three.
"$stand" report "$dir/run" --bench-json customBiggerIsBetter 2> /dev/null | python3 -c 'import json, sys; assert json.load(sys.stdin)'
set +e
"$stand" report "$dir/run" --bench-json junit 2> "$dir/err"; code=$?
set -e
[[ $code -eq 2 ]] && grep -q 'expected bmf, customSmallerIsBetter or customBiggerIsBetter' "$dir/err" || { echo "got $code"; cat "$dir/err"; exit 1; }
echo ok
