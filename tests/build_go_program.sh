#!/bin/sh
# Builds one of the Go programs under tests/ (hysteria2-server, the test
# server; hysteria2-client, the benchmark peer): ./build_go_program.sh DIR OUT_PATH
# Uses only DIR's go.mod/go.sum as committed (-mod=readonly); modules come
# from the module cache or GOPROXY.
set -eu

if [ "$#" -ne 2 ] || [ -z "$1" ] || [ -z "$2" ]; then
    echo "usage: $0 DIR OUT_PATH" >&2
    exit 2
fi
if ! command -v go >/dev/null 2>&1; then
    echo "build_go_program.sh: 'go' not found in PATH; install Go >= 1.26 to build $1" >&2
    exit 127
fi

out=$2
case "$out" in
    /*) ;;
    *) out="$(pwd)/$out" ;;
esac

cd "$1"
# Ignore any GOFLAGS from the environment (e.g. -mod=mod, which would let the
# build rewrite go.mod/go.sum); build exactly what is committed.
unset GOFLAGS
exec go build -mod=readonly -trimpath -buildvcs=false -o "$out" .
