#!/bin/sh
# Build the Hysteria 2 test server: ./build.sh OUT_PATH (tests/build_go_program.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../build_go_program.sh" "$here" "$@"
