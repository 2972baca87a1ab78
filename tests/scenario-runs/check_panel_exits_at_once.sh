#!/usr/bin/env bash
# `stand run`: the plugin's panel process (in the plugin's worker) exits at
# once; wait_ready stops within seconds with its exit status and log tail.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-panel-exits.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$(dirname "$0")/../relocate_ports.py" "$scenario" "$dir/scenario.json" >/dev/null  # busy ports moved
scenario=$dir/scenario.json
start=$(date +%s)
set +e
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" >"$dir/out" 2>&1
code=$?
set -e
took=$(( $(date +%s) - start ))
cat "$dir/out"
[[ $code -eq 1 ]] || { echo "expected exit 1 (the repetition failed), got $code"; exit 1; }
reason=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['status'], '|', d.get('reason',''))" \
         "$dir/run/reps/dies_r1.json")
echo "reason: $reason"
[[ $reason == "failed |"* ]] || { echo "expected a failed repetition"; exit 1; }
for text in "a process of the system ended" "exited with status 1; the end of its log" "Address already in use"; do
  [[ $reason == *"$text"* ]] || { echo "the reason lacks: $text"; exit 1; }
done
(( took < 60 )) || { echo "took ${took} s: readiness did not stop at once"; exit 1; }
echo "ok: stopped after ${took} s"
