#!/usr/bin/env bash
# /dev/shm (tmpfs) as the disk probe's test dir: refused before any I/O with
# a message naming the mount, and a non-zero exit.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
[[ "$(stat -f -c %T /dev/shm)" == tmpfs ]] || { echo "/dev/shm is not tmpfs here"; exit 77; }
dir=$(mktemp -d /tmp/stand-tmpfs.XXXXXX)
trap 'rm -rf "$dir"' EXIT
before=$(ls /dev/shm | wc -l)
set +e
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" --param dir=/dev/shm --param size_mib=8 --param duration_s=1 \
  > "$dir/out" 2>&1
rc=$?
set -e
cat "$dir/out"
[[ $rc -ne 0 ]] || { echo "exit status 0 for a tmpfs test dir"; exit 1; }
grep -q 'refusing test directory /dev/shm: it is on tmpfs (mount /dev/shm)' "$dir/out" \
  || { echo "the message does not name tmpfs and the mount"; exit 1; }
[[ $(ls /dev/shm | wc -l) -eq $before ]] || { echo "a file was written to /dev/shm"; exit 1; }
