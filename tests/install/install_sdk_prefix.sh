#!/usr/bin/env bash
# usage: install_sdk_prefix.sh BUILD_DIR PREFIX
# The SDK component, kits included, installed afresh into PREFIX: the
# fixture the install.new_adapter.* tests share.
set -euo pipefail
build=$1 prefix=$2
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" --component sdk >/dev/null
for f in lib/cmake/StandSDK/StandSDKConfig.cmake include/stand/kits/panel/panel_lifecycle.hpp \
         include/stand/kits/proxy/proxy_plugin.hpp include/stand/kits/probe/mount_info.hpp \
         lib/libstand_panel_kit.a lib/libstand_proxy_kit.a lib/libstand_probe_kit.a lib/libstand_tls_certs.a; do
  test -f "$prefix/$f" || { echo "the SDK install lacks $f"; exit 1; }
done
echo "SDK installed into $prefix"
