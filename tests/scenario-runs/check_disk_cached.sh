#!/usr/bin/env bash
# The cache and write-back fixtures: reads and writes through the page cache
# against O_DIRECT reads must fire both checks, with the control ratio shown.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-cached.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins"
sed -n '/^## Cached disk/,/^## Machine/p' "$dir/run/summary.md"
grep -q '^- \*\*fired\*\* (cache, disk): cache suspected: rnd_q1_read.iops .* is .*x the control ctl_rnd_q1_read.iops' "$dir/run/summary.md" \
  || { echo "no cache line for reads served by the page cache"; exit 1; }
grep -q 'writes were not controlled' "$dir/run/summary.md" || { echo "the cache line does not say writes were not controlled"; exit 1; }
grep -q '^- \*\*fired\*\* (write_back, disk): write-back suspected: rnd_q1_write.iops' "$dir/run/summary.md" \
  || { echo "no write-back line for buffered writes"; exit 1; }
grep -qE '^\| disk \| .* \| [0-9]+ \([0-9.]+x\) \|$' "$dir/run/summary.md" || { echo "the control cell lacks the ratio"; exit 1; }
