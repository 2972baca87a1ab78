#!/bin/sh
# Build the Hysteria 2 benchmark client: ./build.sh OUT_PATH
# The same build as ../hysteria2-server/build.sh: only go.mod/go.sum as
# committed (-mod=readonly); modules come from the module cache or GOPROXY.
set -eu

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 OUT_PATH" >&2
    exit 2
fi
if ! command -v go >/dev/null 2>&1; then
    echo "hysteria2-client/build.sh: 'go' not found in PATH; install Go >= 1.26 to build the Hysteria 2 benchmark client" >&2
    exit 127
fi

out=$1
case "$out" in
    /*) ;;
    *) out="$(pwd)/$out" ;;
esac

cd "$(dirname "$0")"
# Ignore any GOFLAGS from the environment (e.g. -mod=mod, which would let the
# build rewrite go.mod/go.sum); build exactly what is committed.
unset GOFLAGS
exec go build -mod=readonly -trimpath -buildvcs=false -o "$out" .
