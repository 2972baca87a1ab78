#!/usr/bin/env bash
# Builds PasarGuard's node and the Xray it runs from their public sources,
# run by hand (not by CI: it needs a snapshot of the node's git repository;
# everything else comes from the Go module proxy):
#   OUT/src                 the node's source at TAG
#   OUT/bin/pasarguard-node `CGO_ENABLED=0 go build ./cmd/node`, as its Makefile builds it
#   OUT/bin/xray            Xray at the github.com/xtls/xray-core version the node's go.mod pins
# and, given PANEL_OUT (what prepare_pasarguard.sh made), the panel's plugin
# config and compat target with the node and Hysteria 2 users:
#   PANEL_OUT/pasarguard-node-plugin.json, PANEL_OUT/pasarguard-node.json
#   ./prepare_pasarguard_node.sh OUT NODE_GIT [TAG] [PANEL_OUT [PORT NODE_PORT INBOUND_PORT]]
# NODE_GIT: a clone or bare snapshot of github.com/PasarGuard/node holding TAG
# (default v0.5.2). The module itself is not on the Go module proxy; all its
# dependencies are. Ports default to 25410 (panel), 25420 (node), 27521 (inbound).
set -euo pipefail

usage="usage: prepare_pasarguard_node.sh OUT NODE_GIT [TAG] [PANEL_OUT [PORT NODE_PORT INBOUND_PORT]]"
out=${1:?$usage}
git_dir=${2:?$usage}
tag=${3:-v0.5.2}
panel_out=${4:-}
port=${5:-25410} node_port=${6:-25420} inbound_port=${7:-27521}
case $out in /*) ;; *) out="$(pwd)/$out" ;; esac
say() { echo "==> $*" >&2; }
die() { echo "prepare_pasarguard_node.sh: $*" >&2; exit 1; }
command -v go >/dev/null || die "go is not installed: the node's go.mod wants Go 1.26 (Debian 12 has 1.19; the official tarball or GOTOOLCHAIN)"
mkdir -p "$out/bin"

# 1. The source at TAG.
src=$out/src
if [[ ! -f $src/.stand-tag ]] || [[ $(cat "$src/.stand-tag") != "$tag" ]]; then
  say "node source $tag from $git_dir"
  rm -rf "$src"; mkdir -p "$src"
  if [[ -d $git_dir/.git ]]; then git -C "$git_dir" archive "$tag" | tar -x -C "$src"
  else git --git-dir="$git_dir" archive "$tag" | tar -x -C "$src"; fi || die "$git_dir has no tag $tag"
  echo "$tag" > "$src/.stand-tag"
  rm -f "$out/bin/pasarguard-node" "$out/bin/xray"
fi

# 2. The node, as its Makefile builds it (static, no cgo).
if [[ ! -x $out/bin/pasarguard-node ]]; then
  say "building the node (about 100 s on 2 cores)"
  (cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -buildid=" -o "$out/bin/pasarguard-node" ./cmd/node) \
    || die "go build ./cmd/node failed"
fi

# 3. Xray at the version the node's go.mod pins (its Dockerfile downloads a
# release from a download site instead; the module proxy has the same source).
xray_version=$(awk '$1 == "github.com/xtls/xray-core" {print $2}' "$src/go.mod")
[[ -n $xray_version ]] || die "$src/go.mod pins no github.com/xtls/xray-core"
if [[ ! -x $out/bin/xray ]] || [[ $(cat "$out/bin/.xray-version" 2>/dev/null) != "$xray_version" ]]; then
  say "building Xray $xray_version (about 45 s)"
  gobin=$(mktemp -d)
  CGO_ENABLED=0 GOBIN=$gobin go install -trimpath -ldflags "-s -w -buildid=" "github.com/xtls/xray-core/main@$xray_version" \
    || die "go install github.com/xtls/xray-core/main@$xray_version failed"
  mv "$gobin/main" "$out/bin/xray"; rmdir "$gobin"
  echo "$xray_version" > "$out/bin/.xray-version"
fi
say "$("$out/bin/xray" version | head -1)"

# 4. The panel's configs with the node (prepare_pasarguard.sh's, plus the node keys).
if [[ -n $panel_out ]]; then
  [[ -d $panel_out/src ]] || die "$panel_out/src is missing: run prepare_pasarguard.sh $panel_out ... first"
  cat > "$panel_out/pasarguard-node-plugin.json" <<JSON
{
  "mode": "native",
  "source_dir": "$panel_out/src",
  "port": $port,
  "protocol": "hysteria2",
  "inbound_port": $inbound_port,
  "node": "$out/bin/pasarguard-node",
  "node_xray": "$out/bin/xray",
  "node_port": $node_port,
  "env": {"PYTHONDONTWRITEBYTECODE": "1"}
}
JSON
  {
    printf '{\n  "config": '
    sed '1!s/^/  /; $s/$/,/' "$panel_out/pasarguard-node-plugin.json"
    cat <<'JSON'
  "wrong_credentials": {"password": "Nope-Wrong-Pass-12"},
  "users": 5,
  "ready_timeout_s": 120,
  "check_timeout_s": 300
}
JSON
  } > "$panel_out/pasarguard-node.json"
  say "ready: stand compat pasarguard --target-config $panel_out/pasarguard-node.json"
  say "       stand run SCENARIO --plugin pasarguard=@$panel_out/pasarguard-node-plugin.json"
fi
