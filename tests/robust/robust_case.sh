#!/usr/bin/env bash
# One defect of issue 37 per ctest (label robust): `robust_case.sh CASE STAND
# FIXTURES PLUGINS SCENARIOS`. Each case does what a careless or hostile user
# does and checks stand's answer: the exit code, the message naming the file
# or option, and that nothing is left behind. Every case works in its own
# temporary directory, so two suites can run side by side.
set -uo pipefail
case_name=$1 stand=$2 fixtures=$3 plugins=$4 scenarios=$5
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/stand-robust.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
source "$here/../cli/expect_exit.sh"
flaky=(--plugin-path "$fixtures")
slow=$here/../scenario-runs/slow.json

# A scenario of `reps` repetitions of fixture-flaky's tick job (sleep_ms each).
tick_scenario() {  # FILE REPS SLEEP_MS
  cat >"$1" <<JSON
{"schema_version": 1, "name": "tick", "plugins": ["fixture-flaky"], "repetitions": $2, "order": "fixed",
 "params": {"sleep_ms": $3},
 "phases": [{"name": "main", "steps": [{"step": "run_probe", "name": "tick", "job": "tick",
                                         "params": {"sleep_ms": "\${sleep_ms}"}}]}]}
JSON
}

no_tmp_files() {  # DIR: no *.tmpPID file left
  local left; left=$(find "$1" -name '*.tmp[0-9]*' 2>/dev/null)
  [[ -z "$left" ]] || { echo "FAIL: temporary files left: $left"; fail=1; }
}

case "$case_name" in

# --- item 1: a run directory is one experiment -------------------------------
probe_into_used_dir)
  expect 0 'slept_ms' -- probe fixture-flaky tick --param sleep_ms=10 --run-dir p "${flaky[@]}"
  expect 2 "run-dir p: not empty .*one experiment.*--resume p" -- probe fixture-flaky tick --param sleep_ms=20 --run-dir p "${flaky[@]}"
  ;;
run_into_used_dir)
  tick_scenario t.json 1 10
  expect 0 '1 repetitions ok' -- run t.json --run-dir r "${flaky[@]}"
  expect 2 "run-dir r: not empty" -- run t.json --run-dir r --param sleep_ms=30 "${flaky[@]}"
  grep -q '"sleep_ms":10' r/run.json || { echo "FAIL: run.json was rewritten"; fail=1; }
  ;;
resume_keeps_its_scenario)
  tick_scenario t.json 3 1500
  "$stand" run t.json --run-dir r "${flaky[@]}" >a.out 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q '"status":"ok"' r/reps/fixture-flaky_r1.json 2>/dev/null && break; sleep 0.1; done
  kill -INT $pid; wait $pid
  tick_scenario t.json 3 5   # edited between the runs
  expect 2 "--resume runs the scenario with the params and plugins it started with; --param" -- \
    run --resume r --param sleep_ms=7 "${flaky[@]}"
  rm t.json                  # and then deleted
  expect 0 'skip fixture-flaky_r1' -- run --resume r "${flaky[@]}"
  for r in 2 3; do
    grep -qE '"tick.slept_ms":1\.5' r/reps/fixture-flaky_r$r.json ||
      { echo "FAIL: r$r did not run the scenario as it started (1500 ms):"; grep -o '"tick.slept_ms":[0-9.]*' r/reps/fixture-flaky_r$r.json; fail=1; }
  done
  ;;
starts_clean)
  # A repetition never starts on the state one that did not finish left:
  # after a crash (r1's start() SIGSEGVs) and after a SIGKILLed run resumed.
  cat >c.json <<'JSON'
{"schema_version": 1, "name": "clean", "plugins": [{"id": "fixture-flaky", "config": {"segv_on_start": 1}}],
 "repetitions": 2, "order": "fixed", "params": {"sleep_ms": 10},
 "phases": [{"name": "main", "steps": [{"step": "start"},
   {"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": "${sleep_ms}"}}]}]}
JSON
  "$stand" run c.json --run-dir rc "${flaky[@]}" >out 2>&1
  grep -q '"tick.found_started":0' rc/reps/fixture-flaky_r2.json ||
    { echo "FAIL: r2 started on the data dir r1's crash left"; cat out; fail=1; }
  [[ -f rc/data-left/fixture-flaky_r1/started ]] || { echo "FAIL: r1's data dir was not kept in data-left/"; fail=1; }
  grep -q 'kept as data-left/fixture-flaky_r1; the next repetition starts without it' out ||
    { echo "FAIL: not said"; cat out; fail=1; }
  sed -e 's/"segv_on_start": 1/"jitter_ms": 0/' -e 's/"repetitions": 2/"repetitions": 3/' -e 's/"sleep_ms": 10/"sleep_ms": 1500/' c.json >k.json
  "$stand" run k.json --run-dir rk "${flaky[@]}" >out 2>&1 &
  pid=$!
  for _ in $(seq 100); do [[ -f rk/data/fixture-flaky/started && -f rk/reps/fixture-flaky_r2.json ]] && break; sleep 0.1; done
  kill -KILL $pid; wait $pid 2>/dev/null
  pkill -KILL -f "stand worker.*rk/" 2>/dev/null
  expect 0 'skip fixture-flaky_r1' -- run --resume rk "${flaky[@]}"
  for r in 2 3; do
    grep -q '"tick.found_started":0' rk/reps/fixture-flaky_r$r.json ||
      { echo "FAIL: resumed r$r started on the killed run's data dir"; fail=1; }
  done
  [[ -d rk/data-left/fixture-flaky.before-resume ]] || { echo "FAIL: the killed run's data dir was not kept"; fail=1; }
  ;;
two_runs_one_dir)
  tick_scenario t.json 3 1500
  "$stand" run t.json --run-dir r "${flaky[@]}" >a.out 2>&1 &
  pid=$!
  for _ in $(seq 100); do [[ -f r/run.json ]] && break; sleep 0.1; done
  expect 2 "run directory r is in use by stand pid $pid" -- run --resume r "${flaky[@]}"
  expect 2 "run directory r is in use by stand pid $pid" -- report r
  kill -INT $pid; wait $pid
  ;;

# --- item 2: stop means stop, signalled to the process group ----------------
run_signal_group_INT|run_signal_group_TERM|run_signal_group_HUP)
  sig=${case_name##*_}
  run_dir=$work/r-$sig-$$  # a name of its own: its cgroups are looked for by it, beside other suites' runs
  "$here/group_signal.py" "$sig" "file:$run_dir/reps/fixture-flaky_r2.json" -- \
    "$stand" run "$slow" --run-dir "$run_dir" "${flaky[@]}" >out 2>&1
  cat out
  line=$(grep '^exit ' out)
  [[ $line =~ ^exit\ 130\ after\ ([0-9.]+)\ s\;\ left\ behind:\ 0$ ]] ||
    { echo "FAIL: SIG$sig to the run's group: want exit 130 with nothing left behind"; fail=1; }
  awk -v s="${BASH_REMATCH[1]:-99}" 'BEGIN { exit !(s < 2.5) }' ||
    { echo "FAIL: the run took ${BASH_REMATCH[1]:-?} s to stop"; fail=1; }
  grep -q 'finish with: stand run --resume' out || { echo "FAIL: no word on how to resume"; fail=1; }
  [[ -f $run_dir/summary.md ]] || { echo "FAIL: no report of what was measured"; fail=1; }
  left=$(find /sys/fs/cgroup -type d -path "*/stand/$(basename "$run_dir")-*" 2>/dev/null || true)
  [[ -z $left ]] || { echo "FAIL: cgroups left: $left"; fail=1; }
  expect 0 'skip fixture-flaky_r1' -- run --resume "$run_dir" "${flaky[@]}"
  ;;
compat_signal_group)
  "$here/group_signal.py" INT 3 -- "$stand" compat fixture-stall "${flaky[@]}" --timeout 60 \
    --config '{"stall": "create", "child": true}' >out 2>&1
  cat out
  grep -qE '^exit 130 after 0\.[0-9]+ s; left behind: 0$' out ||
    { echo "FAIL: Ctrl-C to stand compat's group: want exit 130 within a second, nothing left behind"; fail=1; }
  grep -q 'compat interrupted after' out || { echo "FAIL: compat did not say it was interrupted"; fail=1; }
  ;;
helper_timeout)
  # A panel's helper (`x-ui setting`, through a wrapper script whose child keeps
  # running) that never finishes: its own 30 s timeout ends it and the child,
  # and the check's message names it; not the check's limit.
  [[ -n $(ls "$plugins"/*3x-ui* 2>/dev/null) ]] || { echo "the 3x-ui plugin is not built"; exit 77; }
  port=$("$here/../relocate_ports.py" --free-block 25300 4)
  cat >wrapper.sh <<SH
#!/bin/sh
if [ "\$1" = setting ]; then sleep 1000 & echo \$! >"$work/helper-child.pid"; wait; fi
exec python3 "$here/../doubles/3x-ui/xui_double.py" "\$@"
SH
  chmod +x wrapper.sh
  cat >t.json <<JSON
{"config": {"command": ["$work/wrapper.sh"], "bin_folder": "$fixtures/../compat/xui-double-bin",
            "port": $port, "sub_port": $((port + 1)), "inbound_port": $((port + 2)), "xray_api_port": $((port + 3)),
            "xray_metrics_port": 0},
 "users": 2, "ready_timeout_s": 30, "check_timeout_s": 100}
JSON
  start=$(date +%s)
  "$stand" compat 3x-ui --plugin-path "$plugins" --target-config t.json --check panel.start-ready >out 2>&1
  took=$(( $(date +%s) - start ))
  cat out
  grep -q 'x-ui setting (first start)) did not finish in 30 s; it and every process it started were killed' out ||
    { echo "FAIL: the helper's timeout is not named"; fail=1; }
  (( took < 60 )) || { echo "FAIL: took $took s, want the helper's 30 s, not the check's limit"; fail=1; }
  child=$(cat helper-child.pid 2>/dev/null)
  [[ -n $child ]] || { echo "FAIL: the wrapper never started its child"; fail=1; }
  # A zombie (killed, not reaped yet by whoever inherited it) does not count.
  if [[ -n $child ]] && [[ -e /proc/$child ]] && ! awk '{exit $3 != "Z"}' "/proc/$child/stat" 2>/dev/null; then
    echo "FAIL: the helper's child $child still runs"; kill "$child"; fail=1
  fi
  ;;

# --- item 3: every file bounded ----------------------------------------------
param_file_device)
  tick_scenario t.json 1 10
  expect 2 '^stand: --param-file: cannot read /dev/zero: not a regular file' -- run t.json --param-file /dev/zero "${flaky[@]}"
  ;;
compat_config_device)
  expect 2 '--config: cannot read /dev/zero: not a regular file' -- compat hello --config @/dev/zero
  expect 2 '--target-config: cannot read /dev/zero: not a regular file' -- compat hello --target-config /dev/zero
  ;;
ssh_config_device)
  expect 2 '--ssh-config: cannot read /dev/zero: not a regular file' -- fleet check ssh://root@127.0.0.1 --ssh-config /dev/zero
  ;;
load_urls_fifo)
  mkfifo f
  expect 2 '--urls: cannot read /dev/zero: not a regular file' -- load --urls /dev/zero --duration 1
  expect 2 '--urls: cannot read f: not a regular file' -- load --urls f --duration 1
  expect 2 '--cacert: cannot read f: not a regular file' -- load https://127.0.0.1:9/ --cacert f --duration 1
  ;;
fifo_in_run_dir)
  tick_scenario t.json 1 10
  expect 0 '1 repetitions ok' -- run t.json --run-dir r "${flaky[@]}"
  cp -r r r2
  mkfifo r/reps/x.json
  ln -s /dev/zero r2/reps/y.json
  for d in r r2; do
    expect 2 "$d/reps/.*: not a regular file" -- report $d
    expect 2 "$d/reps/.*: not a regular file" -- compare $d $d
    expect 2 "$d/reps/.*: not a regular file" -- run --resume $d "${flaky[@]}"
  done
  ;;

# --- item 4: exit 4 only for stand's own bugs ---------------------------------
run_dir_not_a_dir)
  tick_scenario t.json 1 10
  expect 2 '--run-dir /dev/null: not a directory' -- run t.json --run-dir /dev/null "${flaky[@]}"
  ;;
run_dir_read_only)
  tick_scenario t.json 1 10
  mkdir ro && mount -t tmpfs -o ro,size=1m tmpfs ro 2>/dev/null || { echo "skip: cannot mount a read-only tmpfs"; exit 77; }
  expect 2 'run-dir ro/r: cannot create it: Read-only file system' -- run t.json --run-dir ro/r "${flaky[@]}"
  expect 2 'cannot use the run directory ro: ro/lock: Read-only file system' -- run t.json --run-dir ro "${flaky[@]}"
  umount ro
  ;;
run_dir_full)
  tick_scenario t.json 2 10
  mkdir full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null || { echo "skip: cannot mount a tmpfs"; exit 77; }
  head -c 60000 /dev/zero >full/filler 2>/dev/null
  out=$("$stand" run t.json --run-dir full/r "${flaky[@]}" 2>&1); code=$?
  [[ $code -eq 1 || $code -eq 2 ]] || { echo "FAIL: a full run directory: exit $code"; echo "$out"; fail=1; }
  grep -q 'internal error' <<<"$out" && { echo "FAIL: a full disk reported as an internal error: $out"; fail=1; }
  grep -q 'No space left on device' <<<"$out" || { echo "FAIL: no reason named: $out"; fail=1; }
  no_tmp_files full
  umount full
  ;;
histogram_out_device)
  expect 2 '--histogram-out /dev/full: not a regular file' -- load http://127.0.0.1:9/ --histogram-out /dev/full --duration 1
  ;;
config_refused_without_schema)
  cat >s.json <<'JSON'
{"schema_version": 1, "name": "noschema", "plugins": [{"id": "fixture-flaky", "config": {"unknown_key": 1}}],
 "phases": [{"name": "main", "steps": [{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 1}}]}]}
JSON
  expect 2 'refused plugin fixture-flaky' -- run s.json --run-dir r "${flaky[@]}"
  ;;
compare_non_number)
  tick_scenario t.json 1 10
  expect 0 '1 repetitions ok' -- run t.json --run-dir r "${flaky[@]}"
  python3 - r/reps/fixture-flaky_r1.json <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
d["metrics"]["tick.slept_ms"] = "ten"
json.dump(d, open(p, "w"))
PY
  out=$("$stand" compare r r 2>&1); code=$?
  [[ $code -eq 2 ]] && ! grep -q 'internal error' <<<"$out" && grep -q 'fixture-flaky_r1.json' <<<"$out" ||
    { echo "FAIL: compare of a non-number metric: exit $code: $out"; fail=1; }
  ;;

# --- item 5: the small ones ---------------------------------------------------
scaffold_names)
  for n in compat all install clean help edit_cache rebuild_cache; do
    expect 2 "'$n' is not a usable adapter name: CMake or the skeleton uses it" -- new adapter $n --interface probe --dir d-$n
    [[ ! -e d-$n ]] || { echo "FAIL: $n left a folder"; fail=1; }
  done
  expect 2 "'proxy-plugin' is not a usable adapter name: its class ProxyPlugin would hide" -- new adapter proxy-plugin --interface proxy --dir d1
  expect 2 "'proxy-settings' is not a usable adapter name: its class ProxySettings" -- new adapter proxy-settings --interface proxy --dir d2
  expect 2 "'panel-lifecycle' is not a usable adapter name: its class PanelLifecycle" -- new adapter panel-lifecycle --interface panel --dir d3
  expect 2 "'launcher' is not a usable adapter name: its class Launcher" -- new adapter launcher --interface panel --dir d4
  ;;
scaffold_full_disk)
  mkdir full && mount -t tmpfs -o size=8k tmpfs full 2>/dev/null || { echo "skip: cannot mount a tmpfs"; exit 77; }
  out=$("$stand" new adapter roomy --interface panel --dir full/roomy 2>&1); code=$?
  [[ $code -ne 0 && $code -ne 4 ]] || { echo "FAIL: exit $code on a full disk: $out"; fail=1; }
  [[ ! -e full/roomy ]] || { echo "FAIL: a half project was left:"; find full/roomy; fail=1; }
  umount full
  ;;
compare_non_finite)
  tick_scenario t.json 1 10
  expect 0 '1 repetitions ok' -- run t.json --run-dir r "${flaky[@]}"
  cp -r r far
  python3 - r/reps/fixture-flaky_r1.json far/reps/fixture-flaky_r1.json <<'PY'
import sys
for p, far in zip(sys.argv[1:], ("1e-300", "1e300")):
    t = open(p).read()
    open(p, "w").write(t.replace('"metrics":{', '"metrics":{"far.metric":' + far + ',"two\\nlines":1,', 1))
PY
  cp -r r before
  "$stand" compare r far --json >c.json 2>c.err || { echo "FAIL: compare --json: $(cat c.err)"; fail=1; }
  python3 -c "
import json, sys
def strict(c): raise ValueError('non-finite ' + c)
d = json.loads(open('c.json').read(), parse_constant=strict)
rows = [r for r in d['rows'] if r['metric'] == 'far.metric']
assert rows and rows[0]['ratio'] is None and 'beyond a double' in rows[0]['null_because'], rows
" || { echo "FAIL: compare --json wrote a non-finite number"; cat c.json; fail=1; }
  "$stand" compare r r >c.md 2>&1
  grep -q '^| fixture-flaky | two lines |' c.md || { echo "FAIL: a newline in a metric name broke the table"; cat c.md; fail=1; }
  mkdir bare && cp r/run.json bare/ && mkdir bare/reps && cp r/reps/*.json bare/reps/
  "$stand" compare bare bare >/dev/null 2>&1
  [[ ! -e bare/logs && ! -e bare/samples ]] || { echo "FAIL: compare created directories in a run it only reads"; fail=1; }
  # A repetition's metric beyond a double (1e999) is refused where it is read, naming the file and the metric.
  sed -i 's/"far.metric":1e-300/"far.metric":1e999/' r/reps/fixture-flaky_r1.json
  expect 2 "r/reps/fixture-flaky_r1.json: .*metrics\.far\.metric: expected a number within a double's range" -- compare r far
  ;;
param_out_of_range)
  expect 2 "^stand: --param sleep_ms=1e309: expected a number within a double's range" -- \
    probe fixture-flaky tick --param sleep_ms=1e309 --run-dir p "${flaky[@]}"
  [[ ! -e p ]] || { echo "FAIL: a refused probe made its run directory"; fail=1; }
  ;;
create_interrupted)
  # in the run's check of the probe steps (a worker lists the plugin's jobs)
  cat >c.json <<'JSON'
{"schema_version": 1, "name": "stall", "plugins": [{"id": "fixture-stall", "config": {"stall": "create", "child": true}}],
 "phases": [{"name": "main", "steps": [{"step": "run_probe", "name": "tick", "job": "tick", "params": {}}]}]}
JSON
  "$here/group_signal.py" INT 1 -- "$stand" run c.json --run-dir rc "${flaky[@]}" >out 2>&1
  cat out
  grep -qE '^exit 130 after [01]\.[0-9]+ s; left behind: 0$' out ||
    { echo "FAIL: Ctrl-C during the check's create(): want exit 130 within 2 s, nothing left"; fail=1; }
  grep -q 'interrupted while checking the plugins' out || { echo "FAIL: not said"; fail=1; }
  # in a repetition
  cat >s.json <<'JSON'
{"schema_version": 1, "name": "stall", "plugins": [{"id": "fixture-stall", "config": {"stall": "create", "child": true}}],
 "phases": [{"name": "main", "steps": [{"step": "start"}]}]}
JSON
  "$here/group_signal.py" INT 2 -- "$stand" run s.json --run-dir r "${flaky[@]}" >out 2>&1
  cat out
  grep -qE '^exit 130 after [01]\.[0-9]+ s; left behind: 0$' out ||
    { echo "FAIL: Ctrl-C during a repetition's create(): want exit 130 within 2 s, nothing left"; fail=1; }
  rep=$(cat r/reps/*.json 2>/dev/null)
  grep -q 'interrupted' <<<"$rep" || { echo "FAIL: the repetition is not recorded interrupted"; fail=1; }
  grep -q 'crashed with' <<<"$rep" && { echo "FAIL: an interrupted create() recorded as a crash"; fail=1; }
  ;;
fleet_host_names)
  expect 2 "the name must be .*not starting with '-'" -- fleet check -- '-rf=ssh://root@127.0.0.1'
  expect 2 "the name must be .*not starting with '-'" -- fleet check -- '--x=ssh://root@127.0.0.1'
  out=$("$stand" fleet check ssh://root@127.0.0.1:1 ssh://root@127.0.0.1:2 2>&1)
  grep -q '127_0_0_1_1' <<<"$out" && grep -q '127_0_0_1_2' <<<"$out" ||
    { echo "FAIL: two ports of one address are not two hosts: $out"; fail=1; }
  ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac
exit $fail
