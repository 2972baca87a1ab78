#!/usr/bin/env bash
# Runs the panel compat checks against a double that captures every request
# (the target's command has --capture CAPTURE), then validates the adapter's
# captured requests against the panel's published API contract.
# Exit 77 (ctest: skipped) only when the contract's registry is unreachable.
set -euo pipefail
stand=$1 plugin=$2 target=$3 mustpass=$4 plugins=$5 capture=$6 contract=$7
here=$(cd "$(dirname "$0")" && pwd)
rm -f "$capture"
"$here/check_panel_compat.sh" "$stand" "$plugin" "$target" "$mustpass" "$plugins"
[[ -s $capture ]] || { echo "the double captured no request ($capture)"; exit 1; }
# The double's own control routes are not part of the panel's API.
grep -v '"path": *"/__double/' "$capture" > "$capture.api" || true
"$contract" "$capture.api"
