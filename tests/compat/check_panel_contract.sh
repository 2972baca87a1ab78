#!/usr/bin/env bash
# Runs COMMAND (the panel compat checks, or the user calls) against a double
# that captures every request (the target's command has --capture CAPTURE),
# then validates the adapter's captured requests against the panel's
# published API contract.
# Exit 77 (ctest: skipped) only when the contract's registry is unreachable.
#   check_panel_contract.sh CAPTURE CONTRACT COMMAND...
set -euo pipefail
capture=$1 contract=$2
shift 2
rm -f "$capture"
"$@"
[[ -s $capture ]] || { echo "the double captured no request ($capture)"; exit 1; }
# The double's own control routes are not part of the panel's API.
grep -v '"path": *"/__double/' "$capture" > "$capture.api" || true
"$contract" "$capture.api"
