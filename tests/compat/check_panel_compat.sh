#!/usr/bin/env bash
# stand compat PLUGIN --target-config TARGET passes, and its JUnit file lists
# every check of mustpass-panel-1.txt as passed; with EXPECT (an extended
# regular expression), one line of the JUnit file must match it too.
set -euo pipefail
stand=$1 plugin=$2 target=$3 mustpass=$4 plugins=$5 expect=${6:-}
dir=$(mktemp -d /tmp/stand-panel-compat.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# The target's ports, moved where something else on this machine holds one.
expect=$("$(dirname "$0")/../relocate_ports.py" "$target" "$dir/target.json" "$expect")
target=$dir/target.json
"$stand" compat "$plugin" --plugin-path "$plugins" --target-config "$target" --junit "$dir/junit.xml"
missing=0
while read -r id; do
  [[ -z $id || $id == \#* ]] && continue
  if ! grep -q "testcase[^>]*name=\"$id\"" "$dir/junit.xml"; then echo "JUnit lacks $id"; missing=1; fi
done < "$mustpass"
if grep -q '<failure' "$dir/junit.xml"; then echo "JUnit has failures"; missing=1; fi
if [[ -n $expect ]] && ! grep -Eq "$expect" "$dir/junit.xml"; then
  echo "JUnit has no line matching: $expect"; grep -o 'name="panel.subscriptions-decode".*' "$dir/junit.xml" || true; missing=1
fi
exit $missing
