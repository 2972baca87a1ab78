#!/usr/bin/env bash
# Installs the HdrHistogram project's Python library from its pinned PyPI
# wheel, once, into OUT/site (the test build's cache), for the python3 that
# runs the tests:
#   fetch_hdrhistogram.sh OUT WHEELS_LIST
# The wheel is chosen by python3's tag (cp311, ...) in WHEELS_LIST and must
# have the sha256 pinned there (tests/fetch_pinned_wheel.sh refuses any
# other, exit 1). Installed with `pip install --no-deps --no-index --target`
# (a wheel is unpacked, nothing in it runs), then imported once. Without pip,
# the registry or a wheel pinned for this python3 it writes OUT/missing.txt
# with the reason and exits 0: the build goes on and the test skips saying
# why. STAND_WHEEL_CACHE=DIR: the wheel from that folder, offline.
set -uo pipefail
out=${1:?usage} list=${2:?usage}
mkdir -p "$out"
rm -f "$out/missing.txt"
missing() { echo "$*" > "$out/missing.txt"; echo "fetch_hdrhistogram.sh: $*" >&2; exit 0; }
tag=$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])' 2>/dev/null) || missing "python3 does not run"
entry=$(grep "^$tag|" "$list")
[[ -n $entry ]] || missing "no hdrhistogram wheel is pinned for python3 ($tag) in $list (pinned: $(grep -o '^cp[0-9]*' "$list" | tr '\n' ' '))"
IFS='|' read -r _ package version pinned <<<"$entry"
[[ -d $out/site/hdrh && "$(cat "$out/wheel.sha256" 2>/dev/null)" == "$pinned" ]] && exit 0
rm -rf "$out/site" "$out/wheel.sha256"
tmp=$(mktemp -d /tmp/stand-hdrh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
wheel=$("$(dirname "$0")/../fetch_pinned_wheel.sh" "$tmp" "$package" "$version" "$pinned" "$list" "$out/missing.txt") ||
  exit $(($? == 3 ? 0 : 1))
python3 -m pip install --quiet --no-deps --no-index --target "$out/site" "$wheel" >"$tmp/install.log" 2>&1 ||
  missing "pip install $(basename "$wheel") failed: $(tail -1 "$tmp/install.log")"
PYTHONPATH=$out/site python3 -c 'import hdrh.log, hdrh.histogram' 2>"$tmp/import.log" ||
  missing "$package $version does not import: $(tail -1 "$tmp/import.log")"
echo "$pinned" > "$out/wheel.sha256"
echo "$package $version ($tag): $out/site" >&2
