#!/usr/bin/env bash
# A double held to a real panel's recording (the *.recorded.* ctests): drives
# the double through the compat flow with --record and compares the result
# with RECORDING_DIR/recording.json (tests/real-panels/compare_recording.py,
# allowed-differences.json beside it when present). RECORDING_DIR may be a
# glob (mistgate-*: its version is the source ref the recording names); no
# recording yet is a skip (77), naming the file.
#   check_panel_recorded.sh STAND PLUGIN TARGET PLUGIN_DIR RECORDING_DIR COMPARER
set -uo pipefail
stand=$1 plugin=$2 target=$3 plugins=$4 pattern=$5 comparer=$6

shopt -s nullglob
matches=($pattern)
shopt -u nullglob
dirs=()
for d in "${matches[@]}"; do [[ -f $d/recording.json ]] && dirs+=("$d"); done
if [[ ${#dirs[@]} -eq 0 ]]; then
  echo "skip: no recording at $pattern/recording.json yet (tests/real-panels/record.sh writes it)"
  exit 77
fi
if [[ ${#dirs[@]} -gt 1 ]]; then
  echo "$pattern matches ${#dirs[@]} recordings (${dirs[*]}): name one version in tests/compat/CMakeLists.txt"
  exit 1
fi
recording=${dirs[0]}/recording.json

dir=$(mktemp -d /tmp/stand-panel-recorded.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$(dirname "$0")/../relocate_ports.py" "$target" "$dir/target.json" >/dev/null  # busy ports moved
target=$dir/target.json
"$stand" compat "$plugin" --plugin-path "$plugins" --target-config "$target" --record "$dir/recording.json" \
  > "$dir/compat.txt" 2>&1
compat_status=$?
if [[ $compat_status -ne 0 ]]; then
  echo "stand compat $plugin exited $compat_status (its checks are the compat.panel.* tests):"
  cat "$dir/compat.txt"
fi
[[ -f $dir/recording.json ]] || { echo "stand compat wrote no recording"; exit 1; }
allow=()
[[ -f ${dirs[0]}/allowed-differences.json ]] && allow=(--allow "${dirs[0]}/allowed-differences.json")
python3 "$comparer" "$recording" "$dir/recording.json" "${allow[@]}"
