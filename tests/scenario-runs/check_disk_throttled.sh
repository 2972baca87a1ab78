#!/usr/bin/env bash
# The limiter fixture: a box with a cgroup io throttle on the test dir's disk
# must produce the limiter line in summary.md, with the plateau in MB/s and
# MiB/s, and the effective box must show the throttle it measured under.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
if [[ ! -d /sys/fs/cgroup/blkio && ! -e /sys/fs/cgroup/cgroup.subtree_control ]]; then
  echo "no blkio or io cgroup controller here"; exit 77
fi
dir=$(mktemp -d /tmp/stand-throttled.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins"
sed -n '/^## Throttled disk/,/^## Probe facts/p' "$dir/run/summary.md"
grep -q '^- \*\*fired\*\* (plateau_equal, disk): limiter suspected: seq_q8_read.mb_s .* and seq_q1_read.mb_s .* are equal within' "$dir/run/summary.md" \
  || { echo "no limiter line for the throttled sequential reads"; exit 1; }
grep -qE 'the plateau is 4[0-9]\.[0-9] MB/s is (39\.[5-9]|40\.[0-4]) MiB/s' "$dir/run/summary.md" \
  || { echo "the plateau is not printed as the 40 MiB/s throttle in MB/s and MiB/s"; exit 1; }
grep -q 'io [0-9]*:[0-9]* read_iops=3000 write_iops=3000 read_bps=41943040 write_bps=41943040' "$dir/run/summary.md" \
  || { echo "the repetitions do not show the effective io throttle"; exit 1; }
