#!/usr/bin/env bash
# stand compat PLUGIN --target-config TARGET passes, and its JUnit file lists
# every check of mustpass-panel-1.txt as passed.
set -euo pipefail
stand=$1 plugin=$2 target=$3 mustpass=$4 plugins=$5
dir=$(mktemp -d /tmp/stand-panel-compat.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" compat "$plugin" --plugin-path "$plugins" --target-config "$target" --junit "$dir/junit.xml"
missing=0
while read -r id; do
  [[ -z $id || $id == \#* ]] && continue
  if ! grep -q "testcase[^>]*name=\"$id\"" "$dir/junit.xml"; then echo "JUnit lacks $id"; missing=1; fi
done < "$mustpass"
if grep -q '<failure' "$dir/junit.xml"; then echo "JUnit has failures"; missing=1; fi
exit $missing
