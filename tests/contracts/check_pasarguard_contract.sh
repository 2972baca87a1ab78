#!/usr/bin/env bash
# Validate a PasarGuard double capture (JSON lines {"method","path","query","headers","body"})
# against the typed pydantic models of the PyPI client package `pasarguard` (pinned; the
# PasarGuard typed client, AmirKenzo/pasarguard_api). Test infrastructure only.
#   tests/contracts/check_pasarguard_contract.sh CAPTURE_FILE [--allow-unknown-keys]
# Installs a venv into ${STAND_CONTRACT_CACHE:-$HOME/.cache/stand-contracts} (outside the
# repo) on first use. Exit 0 = all requests match, 1 = mismatch (route + pydantic error
# printed), 77 = skipped because the package index cannot be reached, 2 = usage/setup error.
set -euo pipefail
VERSION=2.4.0    # latest on PyPI
CAPTURE=${1:?usage: $0 CAPTURE_FILE [--allow-unknown-keys]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${STAND_CONTRACT_CACHE:-$HOME/.cache/stand-contracts}
DIR=$CACHE/pasarguard-$VERSION
PY=$DIR/venv/bin/python
[ -f "$CAPTURE" ] || { echo "no such capture file: $CAPTURE" >&2; exit 2; }
if [ ! -x "$PY" ] || ! "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('pasarguard') != '$VERSION')" 2>/dev/null; then
    rm -rf "$DIR/venv"
    mkdir -p "$DIR"
    python3 -m venv "$DIR/venv" || { echo "python3 -m venv failed (python3-venv missing?)" >&2; exit 2; }
    if ! "$DIR/venv/bin/pip" install -q --disable-pip-version-check "pasarguard==$VERSION" >"$DIR/pip.log" 2>&1; then
        if ! "$DIR/venv/bin/pip" index versions pasarguard >/dev/null 2>&1; then
            rm -rf "$DIR/venv"
            echo "SKIP: package index not reachable; cannot install pasarguard==$VERSION"
            exit 77
        fi
        cat "$DIR/pip.log" >&2
        rm -rf "$DIR/venv"
        exit 2
    fi
fi
exec "$PY" "$HERE/validate_pasarguard_capture.py" "$CAPTURE" "$@"
