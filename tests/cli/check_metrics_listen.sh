#!/usr/bin/env bash
# stand run --metrics-listen: an address off loopback (without
# --allow-remote-metrics), a bad one and a port in use are refused before
# anything runs, exit 2, naming the option; a listener on port 0 says its URL,
# serves /metrics, and Ctrl-C (SIGINT to the run's process group) ends the run
# with 130 within 1.5 s and the listener with it.
#   check_metrics_listen.sh STAND SCENARIO FIXTURES    (SCENARIO: tests/scenario-runs/slow.json)
set -uo pipefail
stand=$1 scenario=$2 fixtures=$3
. "$(dirname "$0")/expect_exit.sh"
dir=$(mktemp -d /tmp/stand-metrics-listen.XXXXXX)
holder= run=
cleanup() {
  [[ -n $holder ]] && kill "$holder" 2>/dev/null
  [[ -n $run ]] && kill -KILL -- "-$run" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
args=(run "$scenario" --plugin-path "$fixtures")

expect 2 'metrics-listen 192\.0\.2\.1:0: not a loopback address.*--allow-remote-metrics' -- "${args[@]}" --run-dir "$dir/r1" --metrics-listen 192.0.2.1:0
expect 2 'metrics-listen nowhere: expected HOST:PORT' -- "${args[@]}" --run-dir "$dir/r2" --metrics-listen nowhere
expect 2 'allow-remote-metrics goes with --metrics-listen' -- "${args[@]}" --run-dir "$dir/r3" --allow-remote-metrics

# A port in use: a listener of our own on a port the system chose.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$dir/port" &
holder=$!
for _ in $(seq 50); do [[ -s $dir/port ]] && break; sleep 0.1; done
busy=$(cat "$dir/port")
expect 2 "metrics-listen 127\\.0\\.0\\.1:$busy: cannot listen on 127\\.0\\.0\\.1:$busy.*in use" -- "${args[@]}" --run-dir "$dir/r4" --metrics-listen "127.0.0.1:$busy"
[[ -e $dir/r4 ]] && { echo "FAIL: the refused run made its run directory"; fail=1; }

# Port 0, a scrape, then SIGINT to the group as a terminal sends it.
: >"$dir/err"
setsid "$stand" "${args[@]}" --run-dir "$dir/r5" --metrics-listen 127.0.0.1:0 >"$dir/out" 2>"$dir/err" &
run=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's|^stand: metrics: \(http://127\.0\.0\.1:[0-9]*/metrics\)$|\1|p' "$dir/err")
  [[ -n $url ]] && break
  sleep 0.1
done
if [[ -z $url ]]; then
  echo "FAIL: no 'stand: metrics: URL' line"; cat "$dir/err"; exit 1
fi
for _ in $(seq 100); do grep -q 'main/tick' "$dir/err" && break; sleep 0.1; done
scrape=$(curl -sS --max-time 5 "$url")
if grep -q '^stand_step_info{plugin="fixture-flaky",repetition="1",phase="main",step="tick",kind="run_probe"} 1$' <<<"$scrape"; then
  echo "ok: $url serves the step running"
else
  echo "FAIL: the scrape does not show the step tick:"; echo "$scrape" | sed 's/^/    /'; fail=1
fi
start=$(date +%s%N)
kill -INT -- "-$run"
for _ in $(seq 100); do kill -0 "$run" 2>/dev/null || break; sleep 0.05; done
wait "$run"; code=$?
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
run=
if [[ $code -eq 130 && $took_ms -le 1500 ]]; then
  echo "ok: SIGINT: exit 130 after $took_ms ms"
else
  echo "FAIL: SIGINT: exit $code after $took_ms ms (want 130 within 1500 ms)"; tail -5 "$dir/err"; fail=1
fi
if curl -s --max-time 2 "$url" >/dev/null; then
  echo "FAIL: the listener still answers after the run ended"; fail=1
else
  echo "ok: the listener closed with the run"
fi
exit $fail
