#!/usr/bin/env bash
# Runs every harness of a fuzz build (tests/fuzz/CMakeLists.txt, STAND_FUZZ=ON)
# for SECONDS each (or until RUNS executions, whichever comes first), one
# after another, and prints per harness the executions, executions/s, the
# inputs that added coverage and the findings:
#   tests/fuzz/run_fuzz.sh BUILD_FUZZ_DIR SECONDS [RUNS]
# STAND_FUZZ_HARNESSES="name ..." runs only those (default: every harness);
# STAND_FUZZ_MAX_LEN the longest input tried (default 200000 bytes).
# New inputs go to a work corpus outside the repository, crashes, leaks,
# timeouts and out-of-memory inputs to a findings directory (both under
# $STAND_FUZZ_DIR, default /var/tmp/stand-fuzz); a finding fails the run.
# Copy an input worth keeping into tests/fuzz/corpus/<harness>/ (ctest
# replays that corpus on every test run).
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${1:?usage: run_fuzz.sh BUILD_FUZZ_DIR SECONDS}
seconds=${2:?usage: run_fuzz.sh BUILD_FUZZ_DIR SECONDS [RUNS]}
runs=${3:--1}
home=${STAND_FUZZ_DIR:-/var/tmp/stand-fuzz}
# Inputs as long as a user's: a 100,000-character name, path or --fail-if
# (libFuzzer's own default stops at 4,096 bytes or the corpus's longest).
max_len=${STAND_FUZZ_MAX_LEN:-200000}
list=$build/fuzz/harnesses.txt
[[ -f $list ]] || { echo "run_fuzz.sh: $list missing: not a fuzz build" >&2; exit 1; }
only=" ${STAND_FUZZ_HARNESSES:-} "
for name in $only; do
  grep -qx "$name" "$list" || { echo "run_fuzz.sh: STAND_FUZZ_HARNESSES names '$name', not a harness of $list" >&2; exit 1; }
done

# Leaks count as findings; UBSan reports end the run (the build has
# -fno-sanitize-recover) with a stack to act on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

clean=0 failed=0
printf '%-16s %12s %9s %8s %6s  %s\n' harness executions exec/s new_cov cov findings
while read -r name; do
  [[ -n $name ]] || continue
  [[ $only == "  " || $only == *" $name "* ]] || continue
  corpus=$home/corpus/$name findings=$home/findings/$name logs=$home/logs
  mkdir -p "$corpus" "$findings" "$logs"
  log=$logs/$name.log
  stamp=$logs/$name.started
  touch "$stamp"
  rc=0
  nice -n 10 "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "tests/fuzz/corpus/$name" >"$log" 2>&1 || rc=$?
  execs=$(stat_of number_of_executed_units "$log")
  rate=$(stat_of average_exec_per_sec "$log")
  added=$(stat_of new_units_added "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  found=$(find "$findings" -type f -newer "$stamp" | wc -l)  # this run's; older ones stay for reference
  if ((rc == 0 && found == 0)); then
    clean=$((clean + 1))
    verdict=none
  else
    failed=$((failed + 1))
    verdict="$found in $findings (exit $rc, log $log)"
  fi
  printf '%-16s %12s %9s %8s %6s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "${added:-?}" "${cov:-?}" "$verdict"
done <"$list"
limit="${seconds}s"
((runs > 0)) && limit+=" or $runs executions"
echo "fuzz: $clean harnesses clean, $failed failed ($limit each; work corpus $home/corpus, findings $home/findings)"
((failed == 0))
