#!/usr/bin/env bash
# scenarios/vps-battery.json with the CI setting: finishes in under 3
# minutes, every repetition ok, and summary.md has every table of seed 004's
# shape with a value in every cell, the anomalies, the pitfall checks, the
# caveats and the machine and tool facts.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-battery.XXXXXX)
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" \
  --param duration_s=1 --param pause_s=0.2 --param size_mib=16 --param control_size_mib=32 \
  --param sevenzip_iterations=1 --param sevenzip_dictionary_log=18
elapsed=$(($(date +%s) - start))
summary=$dir/run/summary.md
cat "$summary"
echo "the battery took ${elapsed} s"
fail=0
for title in "Disk, main file: sequential, MB/s" "Disk, main file: sequential, MiB/s" "Disk, main file: random, IOPS" \
             "Disk, main file: latency" "Control: file larger than RAM" "CPU and memory" "Crypto and archiver" \
             "Anomalies" "Pitfall checks" "Caveats the probes reported" "Machine" "Probe facts"; do
  grep -q "^## $title" "$summary" || { echo "missing section: $title"; fail=1; }
done
# Every wide table line of a plugin has a value in every cell; without 7-Zip
# only the archiver's cell (the last of the crypto line) may be n/a.
lines=$(grep -E '^\| (disk|sysprobe) \|' "$summary")
if ! command -v 7z >/dev/null && ! command -v 7za >/dev/null && ! command -v 7zz >/dev/null; then
  lines=$(sed 's/| n\/a |$/|/' <<<"$lines")
fi
if grep -q 'n/a' <<<"$lines"; then echo "a table has n/a cells"; fail=1; fi
grep -q 'cannot be verified from inside a VM' "$summary" || { echo "no medium-type caveat"; fail=1; }
grep -qE '^\| hypervisor \| ' "$summary" || { echo "no hypervisor fact"; fail=1; }
grep -qE '^\| sysprobe \| openssl_version \| OpenSSL ' "$summary" || { echo "no OpenSSL version"; fail=1; }
grep -qE '^\| disk \| filesystem \| ' "$summary" || { echo "no file system of the test dir"; fail=1; }
python3 - "$dir/run/results.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
bad = [x["key"] for x in r["reps"] if x["status"] != "ok"]
if bad or len(r["reps"]) != 6:
    sys.exit(f"repetitions not ok: {bad} of {len(r['reps'])}")
if not any(c["check"] == "cache" for c in r["checks"]):
    sys.exit("no cache check in results.json")
PY
((elapsed < 180)) || { echo "the CI setting took ${elapsed} s, not under 3 minutes"; fail=1; }
exit $fail
