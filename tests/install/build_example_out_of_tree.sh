#!/usr/bin/env bash
# usage: build_example_out_of_tree.sh BUILD_DIR EXAMPLE_SOURCE_DIR STAND_BINARY
set -euo pipefail
build=$1 example=$2 stand=$3
work=$(mktemp -d /tmp/stand-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" --component sdk >/dev/null
test -f "$work/prefix/include/stand/plugin.h"
test -f "$work/prefix/lib/cmake/StandSDK/StandSDKConfig.cmake"
test -f "$work/prefix/lib/cmake/StandSDK/StandSDKConfigVersion.cmake"

# A copy of the example outside the source tree, with no way to see ../../sdk.
cp -r "$example" "$work/src"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build "$work/build" >/dev/null
so="$work/build/hello.so"
test -f "$so" || { echo "example did not produce $so"; ls -R "$work/build"; exit 1; }

exports=$(nm -D --defined-only "$so" | awk '{print $2 " " $3}')
[[ "$exports" == "T stand_plugin_entry_v1" ]] || { echo "unexpected exports: $exports"; exit 1; }

# A version check: asking for SDK major 2 must fail to configure.
sed -i 's/find_package(StandSDK 1 /find_package(StandSDK 2 /' "$work/src/CMakeLists.txt"
if cmake -S "$work/src" -B "$work/build2" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null 2>&1; then
  echo "find_package(StandSDK 2) unexpectedly succeeded against SDK 1"; exit 1
fi

"$stand" compat "$so"
