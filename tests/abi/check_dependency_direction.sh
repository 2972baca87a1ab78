#!/usr/bin/env bash
# Plugins, examples and the adapter skeletons (sdk/templates) see only the
# SDK and its kits: no framework header, no framework target.
set -euo pipefail
root=${1:?usage: check_dependency_direction.sh SOURCE_DIR}
hits=$(grep -rnE '^\s*#\s*include\s*[<"](framework/|loader/|host/|compat/|cli/|isolation/)|^[^#]*(stand::framework|stand_framework)' \
         "$root/plugins" "$root/examples" "$root/sdk/templates" 2>/dev/null || true)
if [[ -n "$hits" ]]; then
  echo "plugins/, examples/ and sdk/templates/ must depend only on sdk/:"; echo "$hits"; exit 1
fi
echo "ok: plugins/, examples/ and sdk/templates/ depend only on sdk/"
