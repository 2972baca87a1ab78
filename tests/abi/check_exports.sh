#!/usr/bin/env bash
# Every plugin in DIR exports exactly one defined dynamic symbol, the entry.
set -euo pipefail
dir=${1:?usage: check_exports.sh PLUGIN_DIR}
shopt -s nullglob
plugins=("$dir"/*.so)
(( ${#plugins[@]} > 0 )) || { echo "no plugins in $dir"; exit 1; }
status=0
for so in "${plugins[@]}"; do
  symbols=$(nm -D --defined-only "$so" | awk '{print $2 " " $3}')
  if [[ "$symbols" != "T stand_plugin_entry_v1" ]]; then
    echo "FAIL $so exports:"; echo "$symbols" | sed 's/^/    /'; status=1
  else
    echo "ok   $so: T stand_plugin_entry_v1"
  fi
done
exit $status
