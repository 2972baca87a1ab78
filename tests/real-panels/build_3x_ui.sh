#!/usr/bin/env bash
# Builds the real 3x-ui panel and the Xray core it pins, from the Go module
# proxy, into OUT laid out as the official install (/usr/local/x-ui):
#   OUT/x-ui                    the panel (x-ui -v prints 3.6.0)
#   OUT/bin/xray-linux-amd64    Xray at the version 3x-ui's go.mod requires
#   OUT/bin/geoip.dat, geosite.dat   minimal "private" codes (xray-geo/)
#   OUT/versions.txt            what was built, for the tests' messages
#   ./build_3x_ui.sh OUT [XUI_VERSION]
# Built once: a second run with the same version finds versions.txt and does
# nothing. Exit 77 (ctest's skip) when Go is missing, naming it.
#
# The module holds no built web UI (internal/web/dist is made by a Vite
# build whose npm packages this machine cannot all fetch), so the unbuilt
# entry pages are embedded: GET / answers 200 with HTML, the API, the
# subscription server and Xray are the real ones.
set -euo pipefail

out=${1:?usage: build_3x_ui.sh OUT [XUI_VERSION]}
version=${2:-v3.6.0}
here=$(cd "$(dirname "$0")" && pwd)
case $out in /*) ;; *) out="$(pwd)/$out" ;; esac

if ! command -v go >/dev/null 2>&1; then
  echo "build_3x_ui.sh: 'go' not found in PATH: the real 3x-ui $version + Xray peers need Go >= 1.26" >&2
  exit 77
fi
if [[ -f $out/versions.txt ]] && grep -qx "x-ui $version" "$out/versions.txt" && [[ -x $out/x-ui && -x $out/bin/xray-linux-amd64 ]]; then
  exit 0
fi
unset GOFLAGS
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
work=$out/.work
rm -rf "$work"
mkdir -p "$work" "$out/bin"

# go mod download answers with JSON; its Error field is the registry's word.
module_dir() {
  local json
  json=$(cd "$work" && go mod download -json "$1" 2>&1) || true
  local err dir
  err=$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",\{0,1\}$/\1/p')
  dir=$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [[ -n $err || -z $dir ]]; then
    echo "build_3x_ui.sh: go mod download $1 failed: ${err:-$json}" >&2
    exit 1
  fi
  printf '%s\n' "$dir"
}

copy_module() {  # a writable copy, built with its own go.mod and go.sum
  mkdir -p "$2"
  cp -r "$1"/. "$2"/
  chmod -R u+w "$2"
}

echo "==> 3x-ui $version from the Go module proxy" >&2
xui_src=$work/x-ui
copy_module "$(module_dir "github.com/mhsanaei/3x-ui/v3@$version")" "$xui_src"
mkdir -p "$xui_src/internal/web/dist/assets"
for page in login.html index.html subpage.html; do
  [[ -f $xui_src/frontend/$page ]] && cp "$xui_src/frontend/$page" "$xui_src/internal/web/dist/"
done
touch "$xui_src/internal/web/dist/.gitkeep" "$xui_src/internal/web/dist/assets/.gitkeep"
(cd "$xui_src" && CGO_ENABLED=1 CGO_CFLAGS="-D_LARGEFILE64_SOURCE" nice -n 10 \
   go build -trimpath -ldflags "-w -s" -o "$out/x-ui" main.go)

xray_version=$(awk '$1 == "github.com/xtls/xray-core" {print $2; exit}' "$xui_src/go.mod")
[[ -n $xray_version ]] || { echo "build_3x_ui.sh: 3x-ui's go.mod names no github.com/xtls/xray-core" >&2; exit 1; }
commit=${xray_version##*-}
commit=${commit:0:7}
echo "==> Xray $xray_version (the version 3x-ui $version requires)" >&2
xray_src=$work/xray-core
copy_module "$(module_dir "github.com/xtls/xray-core@$xray_version")" "$xray_src"
(cd "$xray_src" && CGO_ENABLED=0 nice -n 10 go build -trimpath -o "$out/bin/xray-linux-amd64" \
   -ldflags "-X github.com/xtls/xray-core/core.build=$commit -s -w -buildid=" ./main)

echo "==> geoip.dat and geosite.dat (private codes only)" >&2
mkdir -p "$xray_src/zz_stand_geo"
cp "$here/xray-geo/main.go" "$xray_src/zz_stand_geo/main.go"
(cd "$xray_src" && go run ./zz_stand_geo "$out/bin")

xray_says=$("$out/bin/xray-linux-amd64" version)
{
  echo "x-ui $version"
  echo "x-ui -v $("$out/x-ui" -v)"
  echo "xray-core $xray_version"
  printf '%s\n' "${xray_says%%$'\n'*}"
} > "$out/versions.txt.new"
mv "$out/versions.txt.new" "$out/versions.txt"
rm -rf "$work"
cat "$out/versions.txt" >&2
