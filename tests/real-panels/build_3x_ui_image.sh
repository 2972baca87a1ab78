#!/usr/bin/env bash
# Builds a local podman image of the real 3x-ui laid out as the official one
# (ghcr.io/mhsanaei/3x-ui: /app/x-ui, /app/bin/xray-linux-amd64 and the geo
# files, WORKDIR /app, the database in /etc/x-ui, ENTRYPOINT
# /app/DockerEntrypoint.sh, CMD ./x-ui) on a Debian 12 root made with
# `debootstrap --variant=minbase bookworm`: no image registry is reachable here.
#   ./build_3x_ui_image.sh XUI_HOME CACHE [IMAGE]
# XUI_HOME: what build_3x_ui.sh made (x-ui, bin/, versions.txt). CACHE: a
# folder in the build tree keeping the Debian root as a tar (debootstrap runs
# once). IMAGE: default ghcr.io/mhsanaei/3x-ui:v3.6.0, the adapter's pinned
# tag. Idempotent: the image carries a label with the digest of what went in,
# and an image with the same label is kept. Podman's configuration comes from
# the environment (podman/podman_env.sh sets CONTAINERS_CONF).
set -euo pipefail

xui_home=${1:?usage: build_3x_ui_image.sh XUI_HOME CACHE [IMAGE]}
cache=${2:?usage: build_3x_ui_image.sh XUI_HOME CACHE [IMAGE]}
image=${3:-ghcr.io/mhsanaei/3x-ui:v3.6.0}
here=$(cd "$(dirname "$0")" && pwd)
entrypoint=$here/xui-image/entrypoint.sh
fail() { echo "build_3x_ui_image.sh: $*" >&2; exit 1; }

for tool in podman debootstrap tar sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || fail "'$tool' not found in PATH (Debian: apt-get install podman runc debootstrap)"
done
[[ $(id -u) == 0 ]] || fail "debootstrap and podman import need root"
for f in x-ui bin/xray-linux-amd64 bin/geoip.dat bin/geosite.dat versions.txt; do
  [[ -f $xui_home/$f ]] || fail "$xui_home/$f is missing (build it with tests/real-panels/build_3x_ui.sh $xui_home)"
done
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# The Debian root, once.
base=$cache/debian-bookworm-minbase.tar
if [[ ! -s $base ]]; then
  root=$cache/debian-root.tmp
  rm -rf "$root"
  echo "==> debootstrap --variant=minbase bookworm (once, into $base)" >&2
  if ! debootstrap --variant=minbase bookworm "$root" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$cache/debootstrap.log" 2>&1; then
    tail -5 "$cache/debootstrap.log" >&2
    fail "debootstrap failed (log: $cache/debootstrap.log)"
  fi
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" --numeric-owner -cf "$base.tmp" .
  mv "$base.tmp" "$base"
  rm -rf "$root"
fi

digest=$(cat "$base" "$xui_home/x-ui" "$xui_home"/bin/xray-linux-amd64 "$xui_home"/bin/geoip.dat \
             "$xui_home"/bin/geosite.dat "$entrypoint" | sha256sum | cut -c1-32)
if [[ $(podman image inspect --format '{{index .Labels "stand.build"}}' "$image" 2>/dev/null) == "$digest" ]]; then
  echo "build_3x_ui_image.sh: $image is up to date ($(head -1 "$xui_home/versions.txt"))" >&2
  exit 0
fi

# The official layout appended to the Debian root, imported as one layer.
stage=$cache/xui-image.tmp
rm -rf "$stage" "$cache/image.tar"
mkdir -p "$stage/app/bin" "$stage/etc/x-ui" "$stage/var/log/x-ui"
cp "$xui_home/x-ui" "$stage/app/x-ui"
cp "$xui_home"/bin/xray-linux-amd64 "$xui_home"/bin/geoip.dat "$xui_home"/bin/geosite.dat "$stage/app/bin/"
cp "$entrypoint" "$stage/app/DockerEntrypoint.sh"
chmod 755 "$stage/app/x-ui" "$stage/app/bin/xray-linux-amd64" "$stage/app/DockerEntrypoint.sh"
cp "$base" "$cache/image.tar"
tar -C "$stage" --numeric-owner --owner=0 --group=0 -rf "$cache/image.tar" ./app ./etc/x-ui ./var/log/x-ui
echo "==> podman import $image" >&2
podman import \
  --change 'WORKDIR /app' \
  --change 'ENV XUI_IN_DOCKER=true' --change 'ENV XUI_MAIN_FOLDER=/app' --change 'ENV XUI_ENABLE_FAIL2BAN=false' \
  --change 'EXPOSE 2053' --change 'VOLUME /etc/x-ui' \
  --change 'ENTRYPOINT ["/app/DockerEntrypoint.sh"]' --change 'CMD ["./x-ui"]' \
  --change "LABEL stand.build=$digest" \
  --change "LABEL stand.source=\"$(head -1 "$xui_home/versions.txt") + $(sed -n 's/^Xray \([^ ]*\).*/Xray \1/p' "$xui_home/versions.txt") on debootstrap minbase bookworm\"" \
  "$cache/image.tar" "$image" >/dev/null
rm -rf "$stage" "$cache/image.tar"
podman image inspect --format '{{index .Labels "stand.build"}}' "$image" | grep -qx "$digest" ||
  fail "podman import did not leave $image with label stand.build=$digest"
echo "build_3x_ui_image.sh: built $image ($(head -1 "$xui_home/versions.txt"))" >&2
