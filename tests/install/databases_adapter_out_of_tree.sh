#!/usr/bin/env bash
# usage: databases_adapter_out_of_tree.sh STAND SDK_PREFIX SOURCE PYTHON
# A panel adapter that declares PostgreSQL, MariaDB and Redis in one line
# each (the panel kit's companions.hpp), as a third party builds it: SOURCE
# (tests/fixtures/panel-databases) copied out of the source tree, configured
# and built against the SDK installed in SDK_PREFIX alone (warnings are
# errors), one exported symbol, then `stand compat --check panel.start-ready`
# starts the three real servers and its panel (check_databases.sh).
set -euo pipefail
stand=$1 prefix=$2 source=$3 python=$4
work=$(mktemp -d /tmp/stand-databases-adapter.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$source" "$work/src"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-Werror" \
      >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
so=$work/build/fixture-databases.so
exports=$(nm -D --defined-only "$so" | awk '{print $2 " " $3}')
[[ "$exports" == "T stand_plugin_entry_v1" ]] || { echo "unexpected exports: $exports"; exit 1; }
# The copy's own check and panel: nothing of the source tree is used from here on.
"$work/src/check_databases.sh" "$stand" "$so" "$python" "$("$(dirname "$0")/../relocate_ports.py" --free-block 28615 1)"
