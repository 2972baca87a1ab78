#!/usr/bin/env bash
# Plugins and examples see only the SDK: no framework header, no framework target.
set -euo pipefail
root=${1:?usage: check_dependency_direction.sh SOURCE_DIR}
hits=$(grep -rnE '^\s*#\s*include\s*[<"](framework/|loader/|host/|compat/|cli/|isolation/)|^[^#]*(stand::framework|stand_framework)' \
         "$root/plugins" "$root/examples" 2>/dev/null || true)
if [[ -n "$hits" ]]; then
  echo "plugins/examples must depend only on sdk/:"; echo "$hits"; exit 1
fi
echo "ok: plugins/ and examples/ depend only on sdk/"
