#!/usr/bin/env bash
# Issue 52's defects of `stand run` (label robust): `run_case.sh CASE STAND
# FIXTURES PLUGINS SCENARIOS`. Each case does what a careless or hostile user
# does (a target that dies in a search, a step the plugin cannot run, a rate
# of one request a century, a run killed just after it began) and checks that
# stand's number or refusal is right. Each works in its own temporary
# directory and binds port 0 only.
# serial: machine_busy_not_our_last_rep
set -uo pipefail
case_name=$1 stand=$2 fixtures=$3 plugins=$4 scenarios=$5
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/stand-robust-run.XXXXXX)
server_pid=
trap '[[ -n $server_pid ]] && kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
source "$here/../cli/expect_exit.sh"
flaky=(--plugin-path "$fixtures")

# A one-step scenario of PLUGIN (an id or {"id":..., "config":...}) running STEP (a JSON object).
one_step() {  # FILE PLUGIN STEP
  cat >"$1" <<JSON
{"schema_version": 1, "name": "one-step", "plugins": [$2], "repetitions": 1,
 "phases": [{"name": "main", "steps": [$3]}]}
JSON
}

start_capacity_server() {  # LIMIT: sets port
  coproc SERVER { exec python3 "$here/../capacity/capacity_server.py" --limit "$1"; }
  server_pid=$SERVER_PID
  read -r line <&"${SERVER[0]}"
  port=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["port"])' "$line")
}

rep_json() {  # RUN_DIR: the first repetition's record
  cat "$1"/reps/*_r1.json 2>/dev/null
}

case "$case_name" in

# --- item 1: no capacity for a dead target ------------------------------------
capacity_target_down)
  start_capacity_server 300
  one_step c.json '"fixture-flaky"' "{\"step\": \"capacity\", \"name\": \"cap\", \"urls\": [\"http://127.0.0.1:$port/\"],
    \"from_rate\": 20, \"to_rate\": 1000, \"factor\": 2, \"dwell_s\": 1.5, \"request_timeout_ms\": 1000,
    \"objective\": {\"p95_ms\": 50, \"error_pct\": 1}}"
  "$stand" run c.json --run-dir r "${flaky[@]}" >out 2>&1 &
  run_pid=$!
  # The server dies while the search climbs, after a level met the objective.
  for _ in $(seq 200); do grep -q 'cap at 80/s' out && break; sleep 0.05; done
  kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=
  wait $run_pid; code=$?
  cat out
  summary=$(rep_json r | python3 -c 'import json,sys; print(json.load(sys.stdin)["capacity"]["cap"]["summary"])')
  echo "summary: $summary"
  [[ $summary == "target down at "* ]] || { echo "FAIL: a search whose target died ended: $summary"; fail=1; }
  grep -q 'limit found' <<<"$summary" && { echo "FAIL: a limit stated for a dead target"; fail=1; }
  grep -qE 'no response: .*(refused|connect)' <<<"$summary" || { echo "FAIL: why no response is not named"; fail=1; }
  [[ $code -eq 1 ]] || { echo "FAIL: exit $code, want 1 (the repetition failed)"; fail=1; }
  ;;

# --- item 2: an admin capacity counts its errors, needs a panel -----------------
capacity_admin_errors)
  admin='{"step": "capacity", "name": "cap", "target": "admin_create", "objective": {"p95_ms": 100},
          "from_rate": 1, "to_rate": 4, "dwell_s": 1}'
  one_step a.json '"fixture-flaky"' "$admin"
  expect 2 'capacity "cap" calls stand.panel/1, which plugin fixture-flaky does not implement' -- \
    run a.json --check "${flaky[@]}"
  expect 2 'capacity "cap" calls stand.panel/1, which plugin fixture-flaky does not implement' -- \
    run a.json --run-dir ra "${flaky[@]}"
  [[ ! -e ra/reps ]] || { echo "FAIL: a refused scenario ran repetitions"; fail=1; }
  # A panel that answers every create with a fast error, the objective naming latency only.
  one_step p.json '{"id": "fixture-stall", "config": {"refuse": "create_user"}}' "$admin"
  "$stand" run p.json --run-dir rp "${flaky[@]}" >out 2>&1
  cat out
  summary=$(rep_json rp | python3 -c 'import json,sys; print(json.load(sys.stdin)["capacity"]["cap"]["summary"])')
  echo "summary: $summary"
  grep -q 'met up to' <<<"$summary" && { echo "FAIL: a level where every create failed was met"; fail=1; }
  grep -q 'error_pct 100 > 1' <<<"$summary" || { echo "FAIL: the errors are not what broke the level"; fail=1; }
  # A panel that is down answers nothing: no limit, the target is down.
  one_step d.json '{"id": "fixture-stall", "config": {"refuse": "create_user_unreachable"}}' "$admin"
  "$stand" run d.json --run-dir rd "${flaky[@]}" >out 2>&1
  summary=$(rep_json rd | python3 -c 'import json,sys; print(json.load(sys.stdin)["capacity"]["cap"]["summary"])')
  echo "summary: $summary"
  [[ $summary == "target down at 1/s (1 create_user call, no answer from the panel: "*"Connection refused)"* ]] ||
    { echo "FAIL: a panel that answered nothing is not named down"; fail=1; }
  ;;

# --- item 8: a rate that offers no request is refused --------------------------
rate_without_request)
  start_capacity_server 1000
  real_stand=$stand  # a stand that spins deaf to SIGTERM is killed, and the case fails rather than hangs
  printf '#!/bin/sh\nexec timeout -s KILL 20 "%s" "$@"\n' "$real_stand" >bounded && chmod +x bounded
  stand=$work/bounded
  for rate in 1e-10 1e-300; do
    start=$(date +%s)
    expect 2 "--rate $rate with --duration: a rate of ${rate/e-/e-}/s over 1s offers .*; a rate needs at least one request in the duration: 1/s or more" -- \
      load "http://127.0.0.1:$port/" --rate $rate -d 1s
    (( $(date +%s) - start < 10 )) || { echo "FAIL: --rate $rate took $(( $(date +%s) - start )) s"; fail=1; }
  done
  one_step c.json '"fixture-flaky"' "{\"step\": \"capacity\", \"urls\": [\"http://127.0.0.1:$port/\"],
    \"from_rate\": 1e-300, \"to_rate\": 10, \"dwell_s\": 1, \"objective\": {\"p95_ms\": 50}}"
  expect 2 'steps\[0\]\.from_rate: each level lasts dwell_s \(1 s\): a rate of 1e-300/s' -- run c.json --check "${flaky[@]}"
  one_step l.json '"fixture-flaky"' "{\"step\": \"load\", \"urls\": [\"http://127.0.0.1:$port/\"], \"rate\": 0.5, \"duration_s\": 1}"
  expect 2 'steps\[0\]\.rate: a rate of 0.5/s over 1s offers 0.5 requests' -- run l.json --check "${flaky[@]}"
  ;;

# --- item 11: --check refuses what the plugin cannot run ------------------------
check_refuses_what_the_plugin_cannot_run)
  for step in '{"step": "bootstrap"}' '{"step": "create_users", "count": 1}' '{"step": "configure"}' \
              '{"step": "restart", "admin_api": true}' '{"step": "load", "dashboards": 1, "duration_s": 1}'; do
    one_step s.json '"fixture-flaky"' "$step"
    expect 2 'calls stand\.(panel|proxy)/1, which plugin fixture-flaky does not implement \(it has stand\.lifecycle/1, stand\.probe/1\)' -- \
      run s.json --check "${flaky[@]}"
  done
  one_step l.json '"fixture-stall"' '{"step": "load", "links": "subscriptions", "duration_s": 1}'
  expect 2 'load "load1" uses the created users, but no create_users step comes before it' -- run l.json --check "${flaky[@]}"
  # What it can run still passes.
  one_step ok.json '"fixture-flaky"' '{"step": "start"}'
  expect 0 '' -- run ok.json --check "${flaky[@]}"
  ;;

# --- item 15: a run killed just after it began leaves nothing to resume ----------
stale_lock_and_temporary_run_json)
  mkdir r && : >r/lock && echo '{"half": ' >"r/run.json.tmp99999"
  one_step t.json '"fixture-flaky"' '{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 1}}'
  expect 0 '1 repetitions ok' -- run t.json --run-dir r "${flaky[@]}"
  [[ -z $(find r -name '*.tmp[0-9]*') ]] || { echo "FAIL: the dead run's temporary file is still there"; fail=1; }
  # A directory holding anything else still holds an experiment.
  mkdir r2 && : >r2/lock && echo x >r2/notes.txt
  expect 2 'run-dir r2: not empty' -- run t.json --run-dir r2 "${flaky[@]}"
  ;;
lock_holder_named)
  one_step t.json '"fixture-flaky"' '{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 1}}'
  expect 0 '1 repetitions ok' -- run t.json --run-dir r "${flaky[@]}"
  # A holder that took the lock and has not written its pid yet (or never does).
  python3 -c 'import fcntl,os,sys,time; f=open(sys.argv[1],"w"); fcntl.flock(f,fcntl.LOCK_EX); print(os.getpid(),flush=True); time.sleep(30)' \
    r/lock >holder.pid &
  holder=$!
  for _ in $(seq 100); do [[ -s holder.pid ]] && break; sleep 0.05; done
  expect 2 "run directory r is in use by pid $(cat holder.pid) " -- report r
  kill $holder
  ;;

# --- item 16: machine-busy is the machine's, not stand's last repetition --------
machine_busy_not_our_last_rep)
  cat >m.json <<'JSON'
{"schema_version": 1, "name": "busy", "plugins": ["fixture-flaky"], "repetitions": 2, "order": "fixed",
 "phases": [{"name": "main", "steps": [{"step": "run_probe", "name": "spin", "job": "tick",
                                         "params": {"sleep_ms": 4000, "spin_threads": 8}}]}]}
JSON
  expect 0 '2 repetitions ok' -- run m.json --run-dir r "${flaky[@]}"
  python3 - r/reps/fixture-flaky_r2.json <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
machine = rep["machine"]
busy = [f["message"] for f in rep["findings"] if f["id"] == "machine-busy"]
print("rep 2's machine:", machine, "\nmachine-busy:", busy)
# Another program that loaded the CPUs, or kept tasks waiting for one, in the window itself: the finding is right.
if machine["busy_pct"] >= 25 or machine.get("cpu_pressure_pct", 0) > 10:
    print("the machine was busy before rep 2 (another program): nothing to tell"); sys.exit(77)
if busy:
    sys.exit("FAIL: machine-busy raised by stand's own previous repetition while the CPUs were "
             f"{machine['busy_pct']:.0f} % busy before rep 2")
PY
  code=$?
  [[ $code -eq 77 ]] && exit 77
  [[ $code -eq 0 ]] || fail=1
  ;;

*)
  echo "unknown case $case_name"; exit 2 ;;
esac
exit $fail
