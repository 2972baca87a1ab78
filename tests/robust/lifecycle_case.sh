#!/usr/bin/env bash
# Issue 52's defects of an adapter's life, one per ctest (label robust):
# `lifecycle_case.sh CASE STAND FIXTURES PLUGINS SCENARIOS`. A panel's
# declared process that never gets ready or a first-start step that hangs
# (named as a process that dies is), an adapter name that clashes with the
# SDK's C names (its project must compile), and `stand load --hdr-log`'s
# file and memory (checked before the load, bounded). Every case works in its
# own temporary directory; a port is one the system gave as free.
set -uo pipefail
case_name=$1 stand=$2 fixtures=$3 plugins=$4 scenarios=$5
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/stand-lifecycle.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
source "$here/../cli/expect_exit.sh"
: "$plugins" "$scenarios"

# fixture-companions (tests/fixtures/panel-companions) through PYTHON, a
# wrapper of python3, on three free ports; its start step gets TIMEOUT_S.
companions_scenario() {  # FILE PYTHON TIMEOUT_S STORE_PORT
  local port=$(($4 - 1))
  cat >"$1" <<JSON
{"schema_version": 1, "name": "never-ready", "repetitions": 1,
 "plugins": [{"id": "fixture-companions", "config": {
   "python": "$2", "script": "$root/tests/fixtures/panel-companions/companions.py",
   "port": $port, "store_port": $4, "node_port": $(($4 + 1)), "store_args": ["--slow-start", "600"]}}],
 "phases": [{"name": "main", "steps": [{"step": "start", "timeout_s": $3}]}]}
JSON
}

# Runs the scenario FILE; sets said (what stand printed and the repetition
# holds) and took (seconds).
run_scenario() {  # FILE RUN_DIR
  local start=$SECONDS
  "$stand" run "$1" --run-dir "$2" --plugin-path "$fixtures" >"$2.out" 2>&1
  local code=$?
  took=$((SECONDS - start))
  said=$(cat "$2.out" "$2"/reps/*.json 2>/dev/null)
  [[ $code -ne 0 && $code -ne 4 ]] || { echo "FAIL: $1: exit $code"; cat "$2.out"; fail=1; }
}

says() {  # WHAT TEXT: `said` holds TEXT
  grep -qF -- "$2" <<<"$said" || { echo "FAIL: $1: not said: $2"; fail=1; }
}

# `stand load ARGS` (1 request/s, to leave the CPUs alone where it runs)
# that must be refused (exit 2, REGEX) at once, before any load.
refused_at_once() {  # REGEX ARGS...
  local regex=$1; shift
  local start=$SECONDS out code
  out=$(timeout 12 "$stand" load --rate 1 "$@" 2>&1); code=$?
  if [[ $code -ne 2 ]] || ! grep -qE -- "$regex" <<<"$out" || ((SECONDS - start > 10)); then
    echo "FAIL: stand load $* -> exit $code after $((SECONDS - start)) s (want 2 at once, /$regex/):"
    sed 's/^/    /' <<<"$out"; fail=1
  else
    echo "ok: stand load $* -> 2"
  fi
}

case "$case_name" in

# --- item 12: a declared process that never gets ready is named --------------
panel_process_not_ready)
  store=$("$here/../relocate_ports.py" --free-block 27760 3)
  store=$((store + 1))
  # Every program says something first, so that a log has an end to show.
  cat >py.sh <<'SH'
#!/bin/sh
echo "$2: warming up (the test's wrapper)"
exec python3 "$@"
SH
  # The first-start step hangs.
  cat >py-hang.sh <<'SH'
#!/bin/sh
if [ "$2" = migrate ]; then echo "migrate: waiting for the schema lock"; exec sleep 600; fi
exec python3 "$@"
SH
  chmod +x py.sh py-hang.sh
  # The store never listens: the start step's 4 s end its 60 s wait.
  companions_scenario ready.json "$work/py.sh" 4 "$store"
  run_scenario ready.json r1
  says "a process never ready" "the process 'store' was not ready"
  says "what it waited for" "nothing accepts TCP connections on 127.0.0.1:$store"
  says "its log" "store.log ends: store: warming up (the test's wrapper)"
  says "the step's timeout" "lifecycle.start did not return within 4000 ms"
  ((took < 30)) || { echo "FAIL: the never-ready run took $took s"; fail=1; }
  companions_scenario hang.json "$work/py-hang.sh" 4 "$store"
  run_scenario hang.json r2
  says "a hung first-start step" "the process 'migrate' had not finished"
  says "its log" "migrate.log ends: migrate: waiting for the schema lock"
  ((took < 30)) || { echo "FAIL: the hung-step run took $took s"; fail=1; }
  ;;

# --- item 13: an adapter named like the SDK's C names compiles ------------------
scaffold_sdk_names)
  compiler=$(command -v c++ || command -v g++) || { echo "skip: no C++ compiler"; exit 77; }
  names=(proxy panel lifecycle error sink result abi_version probe instance result_name plugin_entry_v1)
  : >sources
  for i in panel proxy probe; do
    for n in "${names[@]}"; do
      expect 0 "" -- new adapter "$n" --interface "$i" --dir "$i-$n"
      for f in "$i-$n"/src/*.cpp; do [[ -f $f ]] && echo "$f" >>sources; done
    done
  done
  [[ -s sources ]] || { echo "FAIL: no project was written"; exit 1; }
  # Compile only (the build and compat of a skeleton: install.new_adapter.*).
  flags=(-std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$root/sdk/include")
  for k in panel proxy probe; do flags+=(-I"$root/sdk/kits/$k/include"); done
  xargs -P 2 -I{} sh -c '"$0" "$@" {} >{}.err 2>&1 || echo {}' "$compiler" "${flags[@]}" <sources >failed
  while read -r f; do
    echo "FAIL: $f does not compile:"; head -5 "$f.err" | sed 's/^/    /'; fail=1
  done <failed
  echo "compiled $(wc -l <sources) sources of $((${#names[@]} * 3)) projects"
  ;;

# --- item 14: --hdr-log checked before the load, its memory bounded -------------
hdr_log_bounds)
  url=http://127.0.0.1:9/
  refused_at_once '^stand: load: --hdr-log: an empty file name' "$url" -d 20s --hdr-log ''
  ln -s "$work/gone/x.hlog" dangling.hlog
  refused_at_once "^stand: load: --hdr-log dangling.hlog: a link to $work/gone/x.hlog: cannot write into $work/gone" \
    "$url" -d 20s --hdr-log dangling.hlog
  refused_at_once '^stand: load: --hdr-log h.out and --histogram-out ./h.out name the same file' \
    "$url" -d 20s --hdr-log h.out --histogram-out ./h.out
  ln -s h2.out alias.out
  refused_at_once '^stand: load: --hdr-log alias.out and --histogram-out h2.out name the same file' \
    "$url" -d 20s --hdr-log alias.out --histogram-out h2.out
  # 90 s at 1 ms with 8 threads: 100,001 intervals (the drain's 10 s too) for each thread.
  refused_at_once 'keeps up to 800008 interval histograms .*at most 500000: take --hdr-log-interval 2ms or longer' \
    "$url" -d 90s -t 8 -c 8 --hdr-log x.hlog --hdr-log-interval 1ms
  [[ ! -e x.hlog && ! -e h.out && ! -e h2.out ]] || { echo "FAIL: a refused load wrote a file"; fail=1; }
  ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac
exit $fail
