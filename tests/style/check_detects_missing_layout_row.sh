#!/usr/bin/env bash
# The README layout check fails, naming the folder, on a folder of tests/,
# plugins/, framework/src/, sdk/kits/ or the top level that has no row, and
# on a row whose folder is gone (a plugin moved away); it ignores build
# outputs, and passes on the README as it is. Runs on a copy: the README and the folders and files it names.
#   check_detects_missing_layout_row.sh SOURCE_DIR
set -euo pipefail
src=$1
check=$(dirname "$0")/check_readme_layout.py
dir=$(mktemp -d /tmp/stand-layout.XXXXXX)
trap 'rm -rf "$dir"' EXIT
tree=$dir/tree
mkdir -p "$tree"
cp "$src/README.md" "$tree/"
# Every path the table names that exists here, as an empty folder or file.
python3 - "$src" "$tree" <<'PY'
import pathlib, re, sys
src, tree = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
lines = (src / "README.md").read_text().splitlines()
for line in lines[lines.index("## Layout"):]:
    m = re.match(r"^\|\s*`([^`]+)`\s*\|", line)
    if not m:
        continue
    path = m.group(1).rstrip("/")
    if (src / path).is_dir():
        (tree / path).mkdir(parents=True, exist_ok=True)
    elif (src / path).is_file():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).touch()
PY
python3 "$check" "$src" >/dev/null || { echo "the README's own layout table should pass:"; python3 "$check" "$src"; exit 1; }
python3 "$check" "$tree" >/dev/null || { echo "the copy should pass:"; python3 "$check" "$tree"; exit 1; }

expect_failure() {  # WHAT PATTERN
  if out=$(python3 "$check" "$tree"); then echo "$1 was not caught"; exit 1; fi
  grep -qE "$2" <<<"$out" || { echo "$1: the message does not say '$2':"; echo "$out"; exit 1; }
  echo "caught $1: $(grep -E "$2" <<<"$out" | head -1)"
}
expect_pass() {  # WHAT
  out=$(python3 "$check" "$tree") || { echo "$1 should pass:"; echo "$out"; exit 1; }
  echo "passes $1"
}
for new in tests/new-suite plugins/new-proxy framework/src/newpart sdk/kits/extra tools; do
  mkdir -p "$tree/$new"
  expect_failure "a new folder $new/ without a row" "no row for $new/"
  (cd "$tree" && rmdir -p --ignore-fail-on-non-empty "$new")
done
mkdir -p "$tree/build/bin" "$tree/build-fuzz" "$tree/runs" "$tree/.git"
expect_pass "with build outputs and .git (not folders of the repository)"
rmdir "$tree/plugins/traefik"
expect_failure "a row whose folder is gone" 'names plugins/traefik/?, which does not exist'
echo "ok: the README layout check catches a missing row and a stale one"
