#!/usr/bin/env bash
# The live line of a load step: on a terminal (script(1) gives the run one)
# the progress line is rewritten about once a second with the step's
# elapsed and remaining time, its current rate and its errors; without a
# terminal the same line comes as a plain line at most every 10 s.
#   check_live_line.sh STAND SCENARIOS PLUGINS
set -uo pipefail
stand=$1 scenarios=$2 plugins=$3
dir=$(mktemp -d /var/tmp/stand-live.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; [[ -f $dir/tty.txt ]] && tail -c 2000 "$dir/tty.txt" | tr '\r' '\n' | tail -20; exit 1; }
command -v script >/dev/null || { echo "SKIP: no script(1) (util-linux)"; exit 77; }
args=("$scenarios/quickstart.json" --plugin nginx --plugin-path "$plugins" --param duration_s=3 --param repetitions=1)
script -qec "$(printf '%q ' "$stand" run "${args[@]}" --run-dir "$dir/run")" "$dir/tty.txt" >/dev/null 2>&1 ||
  fail "the run on a terminal failed"
live=$(tr '\r' '\n' <"$dir/tty.txt" | grep -cE '^.\[K\[1/1\] nginx_r1: pool_on [0-9]+ s elapsed, [0-9]+ s left, [0-9]+/s, 0 errors')
((live >= 2)) || fail "no live line rewritten on the terminal ($live)"
tr '\r' '\n' <"$dir/tty.txt" | grep -E 'pool_on [0-9]+ s elapsed' | tail -1
"$stand" run "${args[@]}" --run-dir "$dir/run-plain" >"$dir/out" 2>"$dir/err" || fail "the run without a terminal failed"
grep -q $'\r' "$dir/err" && fail "carriage returns without a terminal"
plain=$(grep -cE 's elapsed, [0-9]+ s left' "$dir/err")
((plain >= 1 && plain <= 2)) || fail "without a terminal: $plain live lines (expected one per step at most every 10 s)"
echo "ok: the live line, $live updates on a terminal, $plain plain line(s) without one"
