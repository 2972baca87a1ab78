#!/usr/bin/env bash
# usage: new_adapter_out_of_tree.sh STAND SDK_PREFIX INTERFACE MUSTPASS [CMAKE_ARG...]
# `stand new adapter` for INTERFACE outside the source tree, configured and
# built against the SDK installed in SDK_PREFIX (warnings are errors), then
# the project's compat target: every check passes and none is skipped. For
# the panel every check of MUSTPASS (tests/compat/mustpass-panel-1.txt) must
# be among them; for the proxy, stand.proxy/1 checks.
set -euo pipefail
stand=$1 prefix=$2 interface=$3 mustpass=$4
shift 4
if [[ $interface == proxy && ! -x /usr/sbin/nginx ]]; then
  echo "nginx is not installed (Debian: apt-get install nginx-light): the proxy skeleton drives it"; exit 77
fi
work=$(mktemp -d /tmp/stand-new-adapter.XXXXXX)
trap 'rm -rf "$work"' EXIT
name="oot-$interface"
if [[ $interface == panel ]]; then  # the double's two ports, moved when something else holds them
  port=$("$(dirname "$0")/../relocate_ports.py" --free-block 47100 2)
  set -- "$@" -DCOMPAT_PORT="$port" -DCOMPAT_INBOUND_PORT=$((port + 1))
fi

"$stand" new adapter "$name" --interface "$interface" --dir "$work/src" >/dev/null
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DSTAND_EXECUTABLE="$stand" \
      -DCMAKE_CXX_FLAGS="-Werror" "$@" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
so="$work/build/$name.so"
test -f "$so" || { echo "the project did not produce $so"; exit 1; }
exports=$(nm -D --defined-only "$so" | awk '{print $2 " " $3}')
[[ "$exports" == "T stand_plugin_entry_v1" ]] || { echo "unexpected exports: $exports"; exit 1; }

cmake --build "$work/build" --target compat
junit="$work/build/compat-junit.xml"
problems=0
grep -q 'failures="0" skipped="0"' "$junit" || { echo "compat: failed or skipped checks"; problems=1; }
expect=()
case $interface in
  panel) mapfile -t expect < <(grep -v '^#' "$mustpass" | grep .) ;;
  proxy) grep -q 'testcase[^>]*name="proxy\.' "$junit" || { echo "compat ran no stand.proxy/1 check"; problems=1; } ;;
  probe) expect=(interface.stand.probe/1) ;;
esac
for id in "${expect[@]}"; do
  grep -q "testcase[^>]*name=\"$id\"" "$junit" || { echo "compat did not run $id"; problems=1; }
done
exit $problems
