#!/usr/bin/env bash
# PasarGuard's node keys: documented by `stand info pasarguard`, and refused
# before anything runs (`stand run --check`, exit 2), each naming the field:
# a node needs an IPv4 config.host (the node's NODE_HOST), and node_xray
# means nothing without config.node.
#   check_pasarguard_node_config.sh STAND PLUGIN_DIR SCENARIO
set -uo pipefail
stand=$1 plugins=$2 scenario=$3
dir=$(mktemp -d /tmp/stand-pasar-node-config.XXXXXX)
trap 'rm -rf "$dir"' EXIT
failed=0
expect_refused() {  # CONFIG_JSON MESSAGE
  printf '%s\n' "$1" > "$dir/plugin.json"
  out=$("$stand" run --check "$scenario" --plugin-path "$plugins" --plugin "pasarguard=@$dir/plugin.json" 2>&1)
  status=$?
  if [[ $status -ne 2 || $out != *"$2"* ]]; then
    echo "FAIL: $1 -> exit $status, expected 2 and: $2"; echo "$out" | tail -5; failed=1
  else
    echo "ok: $2"
  fi
}
expect_refused '{"mode": "native", "command": ["true"], "host": "localhost", "node": "/bin/true"}' \
  "config.host: 'localhost' is not an IPv4 address, which the node's NODE_HOST needs"
expect_refused '{"mode": "native", "command": ["true"], "node_xray": "/bin/true"}' \
  "config.node_xray: only with config.node"
info=$("$stand" info pasarguard --plugin-path "$plugins" 2>&1)
for key in '"node"' '"node_xray"' '"node_xray_assets"' '"node_port"' "SSL_CERT_FILE" "SERVICE_PORT" "XRAY_EXECUTABLE_PATH"; do
  [[ $info == *"$key"* ]] || { echo "FAIL: stand info pasarguard does not name $key"; failed=1; }
done
[[ $failed -eq 0 ]] && echo "ok: stand info pasarguard documents the node keys"
exit $failed
