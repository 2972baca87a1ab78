#!/usr/bin/env bash
# `stand new adapter`: its help, and each mistake a user can make is exit 2
# with a message naming it, writing nothing.
set -uo pipefail
stand=${1:?}
source "$(dirname "${BASH_SOURCE[0]}")/expect_exit.sh"
work=$(mktemp -d /tmp/stand-new-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
expect 0 "usage: stand new adapter NAME --interface panel\|proxy\|probe" -- new adapter --help
expect 0 "usage: stand new adapter" -- new --help
expect 2 "usage: stand new adapter" -- new
expect 2 "unknown kind 'plugin'" -- new plugin x --interface probe
expect 2 "--interface panel\|proxy\|probe is required" -- new adapter x
expect 2 "unknown interface 'vpn' \(panel, proxy or probe\)" -- new adapter x --interface vpn
expect 2 "'Bad_Name' is not a usable adapter name" -- new adapter Bad_Name --interface probe
expect 2 "needs the adapter's name" -- new adapter --interface probe
mkdir taken && touch taken/keep
expect 2 "taken exists and is not empty" -- new adapter x --interface probe --dir taken
expect 0 "wrote a probe adapter 'x' into x/" -- new adapter x --interface probe
[[ $(ls taken) == keep ]] || { echo "FAIL: files were written into taken/"; fail=1; }
[[ -f x/CMakeLists.txt && -f x/src/plugin.cpp && -f x/README.md ]] || { echo "FAIL: x/ lacks a file"; fail=1; }
exit $fail
