#!/usr/bin/env bash
# `stand load --hdr-log` against a `stand backend`, read back by the
# HdrHistogram project's own Python library (the pinned PyPI wheel the build
# fetched into HDRH_HOME/site): a closed-model run in 1 s intervals and an
# open-model run in 500 ms intervals, each held to its own --json and
# --histogram-out (check_hdr_log.py); a `stand run` load step's log in the
# run directory (hdr/<key>.<step>.hlog, the plugin FIXTURES/fixture-noop.so)
# held to its repetition; then the option's usage errors.
#   check_hdr_log.sh STAND HDRH_HOME FIXTURES
set -uo pipefail
stand=$1 home=$2 fixtures=$3
if [[ -f $home/missing.txt || ! -d $home/site/hdrh ]]; then
  echo "skip: the hdrhistogram library was not fetched: $(cat "$home/missing.txt" 2>/dev/null || echo "no $home/site")"
  exit 77
fi
here=$(dirname "$0")
source "$here/../stand_backend.sh"
start_backend "$stand" hdr-log

# run NAME DURATION_S INTERVAL_S [stand load options...]
run() {
  local name=$1 duration=$2 interval=$3
  shift 3
  local started
  started=$(date +%s.%N)
  "$stand" load "$url" -d "${duration}s" --json --histogram-out "$dir/$name.json" --hdr-log "$dir/$name.hlog" "$@" \
    >"$dir/$name.out" 2>"$dir/$name.err" || fail "load $name"
  head -1 "$dir/$name.hlog" | grep -q '^#\[Logged with stand .*microseconds' || fail "$name: no header naming the unit"
  PYTHONPATH=$home/site python3 "$here/check_hdr_log.py" "$dir/$name.hlog" "$dir/$name.json" "$dir/$name.out" \
    "$duration" "$interval" "$started" || fail "$name: the library's reading disagrees with stand's"
}
run closed 3 1 -t 2 -c 4
run open 2 0.5 -t 1 -c 4 --rate 400 --hdr-log-interval 500ms

# A load step of `stand run`: its log in the run directory, named in its repetition.
cat >"$dir/scenario.json" <<JSON
{"schema_version": 1, "name": "hdr-log", "plugins": ["fixture-noop"], "repetitions": 1,
 "phases": [{"name": "load", "steps": [
   {"step": "load", "name": "steady", "urls": ["$url"], "duration_s": 2, "connections": 4, "threads": 1}]}]}
JSON
started=$(date +%s.%N)
"$stand" run "$dir/scenario.json" --run-dir "$dir/run" --plugin-path "$fixtures" >"$dir/run.out" 2>"$dir/run.err" ||
  fail "stand run: $(tail -3 "$dir/run.out")"
rep=$dir/run/reps/fixture-noop_r1.json
named=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["loads"]["steady"]["hdr_log"])' "$rep")
[[ $named == hdr/fixture-noop_r1.steady.hlog && -f $dir/run/$named ]] || fail "the repetition names no interval log: $named"
PYTHONPATH=$home/site python3 "$here/check_hdr_log.py" "$dir/run/$named" - "$rep" 2 1 "$started" steady ||
  fail "stand run: the library's reading disagrees with the repetition"

# Usage errors, each before any request: exit 2 naming the option.
refused() {  # WHAT MESSAGE_REGEX ARGS...
  local what=$1 regex=$2
  shift 2
  "$stand" load "$url" -d 1 "$@" >/dev/null 2>"$dir/refused.err"
  local code=$?
  [[ $code == 2 ]] || fail "$what: exit $code, not 2"
  grep -Eq -- "$regex" "$dir/refused.err" || fail "$what: the message does not say why: $(cat "$dir/refused.err")"
}
refused "an interval without a log" "--hdr-log-interval needs --hdr-log" --hdr-log-interval 1s
refused "an interval under 1 ms" "--hdr-log-interval must be at least 1ms" --hdr-log "$dir/x.hlog" --hdr-log-interval 100us
refused "an unwritable log" "--hdr-log /nonexistent/x.hlog: cannot write" --hdr-log /nonexistent/x.hlog
refused "a directory as the log" "--hdr-log $dir: not a regular file" --hdr-log "$dir"
echo "ok: the three interval logs read back by the HdrHistogram library as stand measured them; bad options refused"
