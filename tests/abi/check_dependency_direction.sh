#!/usr/bin/env bash
# Plugins, examples, the adapter skeletons (sdk/templates) and the kits
# (sdk/kits) see only the SDK and its kits: no framework header, no
# framework target.
set -euo pipefail
root=${1:?usage: check_dependency_direction.sh SOURCE_DIR}
hits=$(grep -rnE '^\s*#\s*include\s*[<"](framework/|loader/|host/|compat/|cli/|isolation/)|^[^#]*(stand::framework|stand_framework)' \
         "$root/plugins" "$root/examples" "$root/sdk/templates" "$root/sdk/kits" 2>/dev/null || true)
if [[ -n "$hits" ]]; then
  echo "plugins/, examples/, sdk/templates/ and sdk/kits/ must depend only on the SDK:"; echo "$hits"; exit 1
fi
echo "ok: plugins/, examples/, sdk/templates/ and sdk/kits/ depend only on the SDK"
