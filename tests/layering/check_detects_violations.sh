#!/usr/bin/env bash
# The layering check fails, naming the file and line, on an upward include
# (text/ including report/), on a host folder missing from the table, and
# on a cycle in the table; and passes on the tree as it is.
#   check_detects_violations.sh SOURCE_DIR
set -euo pipefail
src=$1
check=$(dirname "$0")/check_layering.py
dir=$(mktemp -d /tmp/stand-layering.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/tree/framework"
cp -r "$src/framework/src" "$src/framework/layers.txt" "$dir/tree/framework/"
python3 "$check" "$dir/tree" >/dev/null || { echo "the copy of the tree should pass"; exit 1; }

expect_failure() {  # WHAT PATTERN
  if out=$(python3 "$check" "$dir/tree"); then echo "$1 was not caught"; exit 1; fi
  grep -qE "$2" <<<"$out" || { echo "$1: the message does not say '$2':"; echo "$out"; exit 1; }
  echo "caught $1: $(grep -E "$2" <<<"$out" | head -1)"
}

printf '#include "report/table.hpp"\n' >"$dir/tree/framework/src/text/upward.cpp"
expect_failure "an upward include" 'text/upward.cpp:1: text/ may not include report/'
rm "$dir/tree/framework/src/text/upward.cpp"

mkdir "$dir/tree/framework/src/newpart" && touch "$dir/tree/framework/src/newpart/a.cpp"
expect_failure "a folder missing from the table" 'newpart: a host folder missing from'
rm -r "$dir/tree/framework/src/newpart"

sed -i 's/^text: posix$/text: posix report/' "$dir/tree/framework/layers.txt"
expect_failure "a cycle in the table" 'a cycle: .*text.*report|a cycle: .*report.*text'
echo "ok: the layering check catches all three"
