#!/usr/bin/env bash
# Every bad answer the 3x-ui double can give on create-user (500, garbage,
# connection reset, a slow answer past the adapter's timeout, a session lost
# on every call) fails that repetition with an error naming the panel and the
# operation; a session lost once is re-logged in; the healthy ones finish.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-panel-faults.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$(dirname "$0")/../relocate_ports.py" "$scenario" "$dir/scenario.json" >/dev/null  # busy ports moved
scenario=$dir/scenario.json
set +e
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" >"$dir/out" 2>&1
code=$?
set -e
cat "$dir/out"
[[ $code -eq 1 ]] || { echo "expected exit 1 (some repetitions failed), got $code"; exit 1; }
reason() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['status'], '|', d.get('reason',''))" "$dir/run/reps/$1_r1.json"; }
expect() {  # label, status, text in the reason
  local got; got=$(reason "$1")
  [[ $got == "$2 |"* && $got == *"$3"* ]] || { echo "$1: expected '$2 ... $3', got: $got"; exit 1; }
  echo "ok: $1: $got"
}
expect healthy ok ""
expect f-session-lost-once ok ""
expect f-500 failed "3x-ui: create user: expected HTTP 200 or 401 or 404 (HTTP 500"
expect f-garbage failed "3x-ui: create user: the body is not JSON"
expect f-reset failed "3x-ui: create user:"
expect f-slow failed "3x-ui: create user:"
expect f-session-lost failed "3x-ui: create user: expected HTTP 200 (HTTP 404"
grep -q '| f-500_r1 | failed |' "$dir/run/summary.md"
grep -q 'healthy (n=1)' "$dir/run/summary.md"
