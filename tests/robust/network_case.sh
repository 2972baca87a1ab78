#!/usr/bin/env bash
# Issue 52's network defects, one per ctest (label robust): `network_case.sh
# CASE STAND FIXTURES PLUGINS SCENARIOS`. Each case presses a socket of
# stand's as a careless or hostile peer does (the live-metrics listener, a
# QUIC connection) and checks stand's answer. Every port is one the system
# chose for port 0, read from what the program printed; every case works in
# its own temporary directory, so two suites can run side by side. The
# tunnel case needs the Hysteria 2 test server (build/tests/hy2server, Go;
# STAND_HY2SERVER names another) and skips (77) without it.
set -uo pipefail
case_name=$1 stand=$2 fixtures=$3 plugins=$4 scenarios=$5
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/stand-network.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
source "$here/../cli/expect_exit.sh"
flaky=(--plugin-path "$fixtures")
: "$plugins" "$scenarios"

# Starts `stand backend` on a port the system chose; sets backend (HOST:PORT).
start_backend() {
  "$stand" backend --listen 127.0.0.1:0 >backend.json 2>backend.err &
  pids+=($!)
  for _ in $(seq 100); do [[ -s backend.json ]] && break; sleep 0.1; done
  backend=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["listen"])' backend.json)
}

# Runs stand in a process group of its own in the background (CMD ARGS...,
# output to FILE), after `ulimit -n` LIMIT when given; sets run_pid.
run_in_group() {  # LIMIT|- OUT ARGS...
  local limit=$1 out=$2; shift 2
  if [[ $limit == - ]]; then setsid "$stand" "$@" >"$out" 2>&1 &
  else setsid bash -c 'ulimit -n "$1" && shift && exec "$@"' bash "$limit" "$stand" "$@" >"$out" 2>&1 &
  fi
  run_pid=$!
  pids+=($run_pid)
}

# The HOST:PORT of the listener a run printed ("stand: metrics: http://HOST:PORT/metrics").
metrics_address() {  # OUT
  local at=
  for _ in $(seq 300); do
    at=$(sed -n 's|^stand: metrics: http://\([^/]*\)/metrics$|\1|p' "$1")
    [[ -n $at ]] && break
    sleep 0.1
  done
  [[ -n $at ]] || { echo "FAIL: no 'stand: metrics: URL' line:"; cat "$1"; exit 1; }
  echo "$at"
}

# A scenario of one fixture-flaky repetition: a settle pause, then STEPS (JSON).
flaky_scenario() {  # FILE STEPS
  cat >"$1" <<JSON
{"schema_version": 1, "name": "network", "plugins": ["fixture-flaky"], "repetitions": 1, "order": "fixed",
 "phases": [{"name": "main", "steps": [{"step": "sleep", "name": "settle", "duration_s": 2}, $2]}]}
JSON
}

# The repetition's file of a run directory, as one line of JSON.
rep_json() { cat "$1"/reps/fixture-flaky_r1.json 2>/dev/null; }

case "$case_name" in

# --- item 3: the live-metrics listener must not starve the run --------------
metrics_many_idle)
  # 600 idle connections to the listener under a 256-descriptor limit, then a
  # load of 48 connections: the listener keeps to its share of descriptors,
  # the load has no error, and the repetition notes the press on the listener.
  start_backend
  flaky_scenario s.json "{\"step\": \"load\", \"name\": \"steady\", \"duration_s\": 3, \"connections\": 48,
                          \"rate\": 400, \"urls\": [\"http://$backend/\"]}"
  run_in_group 256 out run s.json --run-dir r "${flaky[@]}" --metrics-listen 127.0.0.1:0
  at=$(metrics_address out)
  python3 "$here/metrics_clients.py" idle "$at" 600 >idle.out 2>&1 &
  idle_pid=$!
  wait "$run_pid"; code=$?
  kill -TERM "$idle_pid"; wait "$idle_pid"
  cat idle.out
  [[ $code -eq 0 ]] || { echo "FAIL: the run exited $code (want 0):"; tail -20 out; fail=1; }
  grep -q 'Too many open files' out && { echo "FAIL: the run ran out of descriptors:"; grep 'Too many' out; fail=1; }
  rep=$(rep_json r)
  errors=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(r["loads"]["steady"]["requests"]["errors"])' "$rep" 2>/dev/null)
  [[ $errors == 0 ]] ||
    { echo "FAIL: the load's errors: ${errors:-none recorded} (want 0): $(grep -o '"error_reasons":[^]]*]' <<<"$rep")"; fail=1; }
  grep -q '"id":"metrics-listener-load"' <<<"$rep" ||
    { echo "FAIL: the repetition does not note the press on the listener: $(grep -o '"findings":[^]]*]' <<<"$rep")"; fail=1; }
  grep -q 'connections refused at its cap of' <<<"$rep" || { echo "FAIL: the note does not name the cap"; fail=1; }
  ;;
metrics_slow_clients)
  # An idle connection, a slowloris and an "Expect: 100-continue" whose body
  # never comes: each is closed by the listener after its request timeout
  # (5 s), not held for the whole run.
  flaky_scenario s.json '{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 30000}}'
  run_in_group - out run s.json --run-dir r "${flaky[@]}" --metrics-listen 127.0.0.1:0
  at=$(metrics_address out)
  python3 "$here/metrics_clients.py" slow "$at" 12 >slow.out 2>&1
  cat slow.out
  for who in idle slowloris expect-continue; do
    line=$(grep "^$who: " slow.out)
    [[ $line =~ closed\ by\ the\ listener\ after\ ([0-9.]+)\ s ]] &&
      awk -v s="${BASH_REMATCH[1]}" 'BEGIN { exit !(s >= 4.5 && s < 8) }' ||
      { echo "FAIL: $who: want closed after the 5 s request timeout: ${line:-no line}"; fail=1; }
  done
  curl -sf --max-time 5 "http://$at/metrics" | grep -q '^stand_run_info' ||
    { echo "FAIL: the listener does not serve a scrape after the slow clients"; fail=1; }
  kill -INT -- "-$run_pid"; wait "$run_pid"
  ;;
metrics_scrape_flood)
  # A scraper that sends its next GET as soon as the last is answered: the
  # listener paces it (at most its rate a second) and the repetition notes it.
  flaky_scenario s.json '{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 4000}}'
  run_in_group - out run s.json --run-dir r "${flaky[@]}" --metrics-listen 127.0.0.1:0
  at=$(metrics_address out)
  sleep 2.5  # into the tick
  python3 "$here/metrics_clients.py" flood "$at" 3 >flood.out 2>&1
  wait "$run_pid"; code=$?
  cat flood.out
  [[ $code -eq 0 ]] || { echo "FAIL: the run exited $code (want 0):"; tail -20 out; fail=1; }
  [[ $(cat flood.out) =~ \(([0-9]+)/s\) ]] && (( BASH_REMATCH[1] <= 80 )) ||
    { echo "FAIL: the flood was answered faster than the listener's pace (at most 50/s after a burst)"; fail=1; }
  rep=$(rep_json r)
  grep -q '"id":"metrics-listener-load"' <<<"$rep" && grep -q 'waited for its pace' <<<"$rep" ||
    { echo "FAIL: the repetition does not note the scrape flood: $(grep -o '"findings":[^]]*]' <<<"$rep")"; fail=1; }
  ;;
metrics_check_port_in_use)
  # item 11: --check refuses a --metrics-listen port it cannot listen on.
  start_backend
  flaky_scenario s.json '{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 10}}'
  expect 2 "^stand: --metrics-listen $backend: cannot listen on $backend .*in use" -- \
    run --check s.json "${flaky[@]}" --metrics-listen "$backend"
  expect 0 'ok \(1 plugin' -- run --check s.json "${flaky[@]}" --metrics-listen 127.0.0.1:0
  ;;
metrics_every_interface)
  # item 15: a listener on every interface says so on stderr.
  flaky_scenario s.json '{"step": "run_probe", "name": "tick", "job": "tick", "params": {"sleep_ms": 10}}'
  expect 0 'stand: metrics: listening on every interface \(0\.0\.0\.0\): reachable from other machines' -- \
    run s.json --run-dir r "${flaky[@]}" --metrics-listen 0.0.0.0:0 --allow-remote-metrics
  "$stand" run s.json --run-dir r2 "${flaky[@]}" --metrics-listen 127.0.0.1:0 >loopback.out 2>&1
  grep -q 'reachable from other machines' loopback.out && { echo "FAIL: a loopback listener warned"; fail=1; }
  ;;

# --- item 4: what is not a QUIC packet does not end a QUIC connection -------
tunnel_empty_datagram)
  # One empty datagram from the server's address into a running `stand
  # tunnel` (a relay in front of the real Hysteria 2 server sends it), in
  # every --udp-batching mode: dropped and counted, the connection goes on.
  hy2=${STAND_HY2SERVER:-$fixtures/../hy2server}
  [[ -x $hy2 ]] || { echo "the Hysteria 2 test server was not built ($hy2): is Go installed?"; exit 77; }
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout key.pem -out cert.pem \
    -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
  start_backend
  echo alice >users
  "$hy2" --listen 127.0.0.1:0 --control 127.0.0.1:0 --cert cert.pem --key key.pem --users users \
    --max-tx-mbit 20 >hy2.out 2>hy2.err &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^ready' hy2.out 2>/dev/null && break; sleep 0.1; done
  server=$(sed -n 's/^ready udp=\([^ ]*\) .*/\1/p' hy2.out)
  [[ -n $server ]] || { echo "FAIL: the Hysteria 2 server did not start"; cat hy2.err; exit 1; }
  for mode in auto mmsg off; do
    python3 "$here/udp_peers.py" relay "$server" 1.5 >relay-$mode.out 2>&1 &
    relay=$!
    for _ in $(seq 50); do grep -q '^udp ' relay-$mode.out && break; sleep 0.1; done
    port=$(sed -n 's/^udp //p' relay-$mode.out)
    "$stand" tunnel "hysteria2://alice@127.0.0.1:$port/?insecure=1" --sink "$backend" -d 3s --rx-mbit 20 \
      --udp-batching "$mode" --json >t-$mode.json 2>t-$mode.err
    kill "$relay"; wait "$relay" 2>/dev/null
    grep -q 'sent a datagram of 0 bytes' relay-$mode.out || { echo "FAIL: $mode: the relay sent no empty datagram"; fail=1; }
    python3 - "$mode" t-$mode.json <<'PY' || fail=1
import json, sys
mode, path = sys.argv[1], sys.argv[2]
try:
    r = json.load(open(path))
except ValueError:
    sys.exit(f"FAIL: {mode}: no result: {open(path).read()[-400:]}")
bad = []
if r["connection_losses"] != 0 or r["streams_dropped"] != 0:
    bad.append(f"losses {r['connection_losses']}, dropped {r['streams_dropped']}, reasons {r['loss_reasons']}")
if r["udp"].get("datagrams_not_quic", 0) < 1:
    bad.append(f"the empty datagram is not counted: udp {r['udp']}")
if bad:
    sys.exit(f"FAIL: --udp-batching {mode}: " + "; ".join(bad))
print(f"ok: --udp-batching {mode}: 0 losses, {r['udp']['datagrams_not_quic']} datagram(s) not QUIC dropped")
PY
  done
  ;;
http3_empty_answers)
  # `stand load --http3` against a peer that answers every datagram with an
  # empty one: no connection completes, and the load says why, as errors.
  python3 "$here/udp_peers.py" empty-answers >peer.out 2>&1 &
  peer=$!
  pids+=($peer)
  for _ in $(seq 50); do grep -q '^udp ' peer.out && break; sleep 0.1; done
  port=$(sed -n 's/^udp //p' peer.out)
  "$stand" load --http3 --insecure "https://127.0.0.1:$port/" -c 2 -d 2s --timeout 1s >load.out 2>&1
  code=$?
  cat load.out
  [[ $code -eq 1 ]] || { echo "FAIL: stand load exited $code (want 1: no request got a response)"; fail=1; }
  grep -qE 'errors [1-9]' load.out || { echo "FAIL: no error counted for a load that sent no request"; fail=1; }
  grep -qE '^ +[0-9]+ [a-z_]+: .*not a QUIC packet' load.out ||
    { echo "FAIL: no error reason names the datagrams that were not QUIC packets"; fail=1; }
  grep -q 'datagrams in were not QUIC packets' load.out || { echo "FAIL: the UDP line does not count them"; fail=1; }
  ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac
exit $fail
