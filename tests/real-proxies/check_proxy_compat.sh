#!/usr/bin/env bash
# stand compat PLUGIN with config.binary = the real binary the test build
# fetched: every check passes and none is skipped. Skips (77) naming the
# reason when the binary could not be fetched (OUT/missing.txt).
#   check_proxy_compat.sh STAND PLUGIN PLUGIN_DIR BINARY
set -euo pipefail
stand=$1 plugin=$2 plugins=$3 binary=$4
missing=$(dirname "$binary")/missing.txt
if [[ -f $missing ]]; then echo "SKIP: $(cat "$missing")"; exit 77; fi
[[ -x $binary ]] || { echo "no binary at $binary and no reason in $missing"; exit 1; }
echo "$plugin: $(grep -m1 -v '^$' "$(dirname "$binary")/version.txt")"
dir=$(mktemp -d /tmp/stand-proxy-compat.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" compat "$plugin" --plugin-path "$plugins" --config "{\"binary\": \"$binary\"}" --junit "$dir/junit.xml"
if grep -q '<skipped' "$dir/junit.xml"; then echo "a check was skipped:"; grep -o 'name="[^"]*"><skipped[^/]*' "$dir/junit.xml"; exit 1; fi
