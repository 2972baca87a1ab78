#!/usr/bin/env bash
# stand compat PLUGIN --target-config TARGET fails, and the JUnit entry of
# CHECK is a failure whose message contains MESSAGE (an adapter that must
# refuse a target, naming why).
set -euo pipefail
stand=$1 plugin=$2 target=$3 plugins=$4 check=$5 message=$6
dir=$(mktemp -d /tmp/stand-panel-fails.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# The target's ports, moved where something else on this machine holds one.
message=$("$(dirname "$0")/../relocate_ports.py" "$target" "$dir/target.json" "$message")
target=$dir/target.json
if "$stand" compat "$plugin" --plugin-path "$plugins" --target-config "$target" --junit "$dir/junit.xml" \
     > "$dir/out.txt" 2>&1; then
  echo "stand compat passed against $target; expected $check to fail with: $message"
  exit 1
fi
python3 - "$dir/junit.xml" "$check" "$message" <<'PY'
import sys
import xml.etree.ElementTree as ET
junit, check, message = sys.argv[1:]
cases = [c for c in ET.parse(junit).iter("testcase") if c.get("name") == check]
if not cases:
    sys.exit("JUnit lacks %s" % check)
failure = cases[0].find("failure")
text = "" if failure is None else (failure.get("message", "") + (failure.text or ""))
if message not in text:
    sys.exit("%s did not fail with %r; it says: %r" % (check, message, text[:500]))
print("%s failed as expected: %s" % (check, text.strip()[:300]))
PY
