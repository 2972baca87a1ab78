#!/usr/bin/env bash
# Issue 52's defects of what stand writes (label robust): `output_case.sh CASE
# STAND FIXTURES PLUGINS SCENARIOS`. Each case does what a careless or hostile
# user does to stand's output (numbers beyond a double, a full disk, strings
# of tens of thousands of characters, characters XML cannot hold) and checks
# stand's answer: the exit code, the message naming the file or option, and
# that what it wrote is well-formed. Every case works in its own temporary
# directory and binds only port 0.
set -uo pipefail
case_name=$1 stand=$2 fixtures=$3 plugins=$4 scenarios=$5
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/stand-output.XXXXXX)
backend_pid=
trap '[[ -n $backend_pid ]] && kill "$backend_pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
source "$here/../cli/expect_exit.sh"
flaky=(--plugin-path "$fixtures")
: "$scenarios"

# A scenario of fixture-flaky's tick job, one repetition; its thresholds
# (a JSON array) are the second argument.
tick_run_scenario() {  # FILE [THRESHOLDS]
  cat >"$1" <<JSON
{"schema_version": 1, "name": "out", "plugins": ["fixture-flaky"], "repetitions": 1, "order": "fixed",
 "thresholds": ${2:-[]},
 "phases": [{"name": "main", "steps": [{"step": "run_probe", "name": "tick", "job": "tick",
                                         "params": {"sleep_ms": 5}}]}]}
JSON
}

# One real run, `seed`: its repetition is the model the runs below are cloned from.
seed_run() {
  tick_run_scenario seed.json
  "$stand" run seed.json --run-dir seed "${flaky[@]}" >seed.out 2>&1 || { echo "FAIL: the seed run"; cat seed.out; exit 1; }
}

# DIR: seed with one repetition per VALUE, its tick.slept_ms that VALUE as
# written (1e999 stays 1e999: a JSON writer could not write it).
clone_run() {  # DIR VALUE...
  python3 - "$@" <<'PY'
import re, shutil, sys
out, values = sys.argv[1], sys.argv[2:]
shutil.copytree("seed", out)
rep = open("seed/reps/fixture-flaky_r1.json").read()
assert '"key":"fixture-flaky_r1"' in rep and '"rep":1,' in rep and '"tick.slept_ms":' in rep, rep[:300]
for i, v in enumerate(values, 1):
    t = rep.replace('"key":"fixture-flaky_r1"', f'"key":"fixture-flaky_r{i}"').replace('"rep":1,', f'"rep":{i},')
    t = re.sub(r'"tick\.slept_ms":[^,}]*', f'"tick.slept_ms":{v}', t)
    open(f"{out}/reps/fixture-flaky_r{i}.json", "w").write(t)
PY
}

# FILE holds JSON with no Infinity, NaN or other non-finite number.
strict_json() {  # FILE WHAT
  python3 -c '
import json, sys
def refuse(c): sys.exit("non-finite number " + c)
json.loads(open(sys.argv[1]).read(), parse_constant=refuse)' "$1" ||
    { echo "FAIL: $2 is not strict JSON:"; head -c 600 "$1"; echo; fail=1; }
}

# FILE is well-formed XML to expat.
well_formed() {  # FILE WHAT
  python3 -c '
import sys, xml.parsers.expat
try:
    xml.parsers.expat.ParserCreate().Parse(open(sys.argv[1], "rb").read(), True)
except xml.parsers.expat.ExpatError as e:
    sys.exit(str(e))' "$1" ||
    { echo "FAIL: $2 is not well-formed XML:"; cat -v "$1" | head -20; fail=1; }
}

# `stand ARGS` with standard output on /dev/full: exit 2 and the reason said.
to_full() {  # ARGS...
  "$stand" "$@" >/dev/full 2>full.err
  local got=$?
  if [[ $got -ne 2 ]] || ! grep -q '^stand: cannot write stdout: No space left on device$' full.err; then
    echo "FAIL: stand $* >/dev/full -> exit $got (want 2 and the reason), stderr:"; sed 's/^/    /' full.err; fail=1
  else
    echo "ok: stand $* >/dev/full -> 2"
  fi
}

start_backend() {
  "$stand" backend --listen 127.0.0.1:0 >backend.out 2>backend.err &
  backend_pid=$!
  for _ in $(seq 50); do [[ -s backend.out ]] && break; sleep 0.1; done
  url=http://$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["listen"])' backend.out)/
}

case "$case_name" in

# --- item 5: no non-finite number in JSON; a gate that cannot judge fails ----
non_finite)
  seed_run
  clone_run inf 5 1e999
  expect 2 "inf/reps/fixture-flaky_r2.json: .*metrics\.tick\.slept_ms: expected a number within a double's range" -- report inf
  expect 2 "inf/reps/fixture-flaky_r2.json: .*metrics\.tick\.slept_ms" -- compare inf seed
  clone_run big 1.7976931348623157e308 1.7976931348623157e308
  expect 0 'results.json' -- report big
  strict_json big/results.json "results.json of two repetitions at the largest double"
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]["fixture-flaky"]["tick.slept_ms"]; assert s["median"] == 1.7976931348623157e308 and s["ci95_low"] == s["median"], s' \
    big/results.json || { echo "FAIL: the median of two largest doubles is not the largest double"; fail=1; }
  "$stand" report big --bench-json bmf >bmf.json 2>bmf.err || { echo "FAIL: --bench-json: $(cat bmf.err)"; fail=1; }
  strict_json bmf.json "--bench-json bmf"
  clone_run small 1e-300 1e-300 1e-300 1e-300 1e-300 1e-300
  clone_run large 1e300 1e300 1e300 1e300 1e300 1e300
  expect 99 "undecided.*cannot decide: NEW/BASE is beyond a double" -- compare small large --fail-if 'tick.slept_ms > +5%'
  "$stand" compare small large --fail-if 'tick.slept_ms > +5%' >gate.md 2>&1
  grep -qi 'nan' gate.md && { echo "FAIL: a gate printed NaN:"; cat gate.md; fail=1; }
  "$stand" compare small large --json --fail-if 'tick.slept_ms > +5%' >gate.json 2>gate.err
  [[ $? -eq 99 ]] || { echo "FAIL: compare --json of a gate that cannot judge: not exit 99"; cat gate.err; fail=1; }
  strict_json gate.json "compare --json with a gate"
  ;;

# --- item 6: output lost is an error -----------------------------------------
stdout_full)
  seed_run
  "$stand" report seed >/dev/null 2>&1
  to_full report seed --bench-json bmf
  to_full compare seed seed --json
  to_full probe fixture-flaky tick --param sleep_ms=1 --run-dir p --json "${flaky[@]}"
  to_full plugins --json "${flaky[@]}"
  to_full run --list-steps --json
  start_backend
  to_full load "$url" -t 1 -c 1 -d 200ms --json
  expect 2 'cannot write /dev/full' -- report seed --bench-json bmf --output /dev/full
  ;;

# --- item 7: no regex recursion on long user text ----------------------------
regex_long)
  seed_run
  a30k=$(head -c 30000 /dev/zero | tr '\0' a)
  a40k=$(head -c 40000 /dev/zero | tr '\0' a)
  expect 2 "^stand: --fail-if 'a{30000} > \+5%': no metric measured by both runs matches a{30000}$" -- \
    compare seed seed --fail-if "$a30k > +5%"
  [[ -n $(ls "$plugins"/disk* 2>/dev/null) ]] || { echo "the disk plugin is not built"; exit 77; }
  long_dir=/var/tmp/$a40k
  expect 2 "refuses these params: dir: expected text matching \"\^\.\+\\$\" of at most 4096 characters, got 40009 characters" -- \
    probe disk rnd4k-q1t1-read --param "dir=$long_dir" --run-dir p --plugin-path "$plugins"
  [[ ! -e p ]] || { echo "FAIL: a refused probe made its run directory"; fail=1; }
  cat >disk.json <<JSON
{"schema_version": 1, "name": "long", "plugins": ["disk"],
 "phases": [{"name": "main", "steps": [{"step": "run_probe", "name": "d", "job": "rnd4k-q1t1-read",
                                         "params": {"dir": "$long_dir"}}]}]}
JSON
  expect 2 "disk.json: .*dir: expected text matching \"\^\.\+\\$\" of at most 4096 characters" -- \
    run --check disk.json --plugin-path "$plugins"
  ;;

# --- item 9: a --fail-if number beyond a double --------------------------------
gate_number_range)
  seed_run
  nines=$(head -c 400 /dev/zero | tr '\0' 9)
  expect 2 "^stand: --fail-if 'tick\.slept_ms > \+9{400}%': the change 9{400} is out of a double's range" -- \
    compare seed seed --fail-if "tick.slept_ms > +$nines%"
  expect 2 "^stand: --fail-if 'tick\.slept_ms < -9{400}\.5': the change 9{400}\.5 is out of a double's range" -- \
    compare seed seed --fail-if "tick.slept_ms < -$nines.5"
  ;;

# --- item 10: JUnit holds only XML 1.0 characters ----------------------------
junit_chars)
  tick_run_scenario t.json '[{"name": "x\uffff", "metric": "tick.slept_ms", "below": 100000},
                             {"name": "y\ufdd0\ud83d\ude00", "metric": "tick.slept_ms", "below": 100000}]'
  "$stand" run t.json --run-dir r --junit run.xml "${flaky[@]}" >run.out 2>&1 || { echo "FAIL: the run"; cat run.out; fail=1; }
  well_formed run.xml "stand run --junit with a threshold named \"x\\uffff\""
  grep -q '😀' run.xml || { echo "FAIL: a character XML takes was not kept"; fail=1; }
  latin1=$(printf 'tick.slept_m[s\xe9]')
  noncharacter=$(printf 'tick.slept_m[s\xef\xbf\xbf]')
  for gate in "$latin1 > +5%" "$noncharacter > +5%"; do
    "$stand" compare r r --fail-if "$gate" --junit gate.xml >gate.out 2>&1
    [[ $? -eq 99 ]] || { echo "FAIL: compare --fail-if $(cat -v <<<"$gate") --junit: not exit 99"; cat gate.out; fail=1; }
    well_formed gate.xml "compare --junit with the gate $(cat -v <<<"$gate")"
  done
  ;;

# --- item 15: the small ones of what stand writes ----------------------------
bench_no_reps)
  seed_run
  cp -r seed none
  sed -i 's/"status":"ok"/"status":"failed","reason":"made to fail"/' none/reps/fixture-flaky_r1.json
  "$stand" report none >/dev/null 2>&1
  expect 2 "^stand: none: no repetition finished, so there is no median to export" -- report none --bench-json bmf
  ;;
output_own_file)
  seed_run
  "$stand" report seed >/dev/null 2>&1
  cp seed/results.json before.json
  expect 2 "^stand: --output seed/results.json: a file of the run seed; write it elsewhere" -- \
    report seed --bench-json bmf --output seed/results.json
  ln seed/summary.md hard.md
  expect 2 "^stand: --output hard.md: a file of the run seed" -- report seed --bench-json bmf --output hard.md
  cmp -s before.json seed/results.json || { echo "FAIL: the run's results.json was overwritten"; fail=1; }
  expect 0 'values as bmf in seed/bmf.json' -- report seed --bench-json bmf --output seed/bmf.json
  ;;
threshold_names)
  tick_run_scenario t.json '[{"metric": "tick.slept_ms", "below": 1000000}, {"metric": "tick.slept_ms", "below": 1000001},
                             {"metric": "tick.slept_ms", "above": 0.1}, {"metric": "tick.slept_ms", "below": 1e21}]'
  expect 0 '' -- run --check t.json "${flaky[@]}"
  "$stand" run t.json --run-dir r --junit j.xml "${flaky[@]}" >run.out 2>&1 || { echo "FAIL: the run"; cat run.out; fail=1; }
  for name in 'tick.slept_ms &lt; 1000000 (median)' 'tick.slept_ms &lt; 1000001 (median)' \
              'tick.slept_ms &gt; 0.1 (median)' 'tick.slept_ms &lt; 1e+21 (median)'; do
    grep -qF "name=\"$name\"" j.xml || { echo "FAIL: no threshold named $name"; cat j.xml; fail=1; }
  done
  ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac
exit $fail
