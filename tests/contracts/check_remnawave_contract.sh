#!/usr/bin/env bash
# Validate a Remnawave double capture (JSON lines {"method","path","query","headers","body"})
# against the zod schemas of @remnawave/backend-contract (pinned). Test infrastructure only.
#   tests/contracts/check_remnawave_contract.sh CAPTURE_FILE [--allow-unknown-keys]
# Installs the package into ${STAND_CONTRACT_CACHE:-$HOME/.cache/stand-contracts} (outside
# the repo) on first use. Exit 0 = all requests match, 1 = mismatch (route + zod issue
# printed), 77 = skipped because the npm registry cannot be reached, 2 = usage/setup error.
set -euo pipefail
VERSION=3.4.15   # latest on npm; no 3.4.5 (the harness's backend) is published there
CAPTURE=${1:?usage: $0 CAPTURE_FILE [--allow-unknown-keys]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${STAND_CONTRACT_CACHE:-$HOME/.cache/stand-contracts}
DIR=$CACHE/remnawave-$VERSION
PKG=$DIR/node_modules/@remnawave/backend-contract/package.json
[ -f "$CAPTURE" ] || { echo "no such capture file: $CAPTURE" >&2; exit 2; }
command -v node >/dev/null || { echo "node is required" >&2; exit 2; }
if [ ! -f "$PKG" ] || ! grep -q "\"version\": \"$VERSION\"" "$PKG"; then
    command -v npm >/dev/null || { echo "npm is required" >&2; exit 2; }
    if ! npm view "@remnawave/backend-contract@$VERSION" version >/dev/null 2>&1; then
        echo "SKIP: npm registry not reachable; cannot install @remnawave/backend-contract@$VERSION"
        exit 77
    fi
    mkdir -p "$DIR"
    [ -f "$DIR/package.json" ] || echo '{"name":"stand-contract-cache","private":true}' > "$DIR/package.json"
    npm install --prefix "$DIR" --no-audit --no-fund --save-exact \
        "@remnawave/backend-contract@$VERSION" >/dev/null
fi
NODE_PATH="$DIR/node_modules" exec node "$HERE/validate_remnawave_capture.js" "$CAPTURE" "$@"
