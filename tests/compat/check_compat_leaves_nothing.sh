#!/usr/bin/env bash
# Issue 18 D13: whatever a check fails on, `stand compat` leaves no process
# running. The Mistgate adapter drives a "panel" that serves its port but
# never prints the setup lines (as a panel whose stdout is block-buffered
# into its log would), from a shell that outlives nothing it started: every
# panel check fails, and afterwards no process of it may remain and its port
# must be free.
#   check_compat_leaves_nothing.sh STAND PLUGINS PORT
set -euo pipefail
stand=$1 plugins=$2 port=$3
port=$("$(dirname "$0")/../relocate_ports.py" --free-block "$port" 2)  # this port and the next, unless something else holds one
dir=$(mktemp -d /tmp/stand-leftover.XXXXXX)
marker="stand-d13-silent-panel-$$"
cleanup() {
  pkill -KILL -f "$marker" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
# A parent shell (not exec'd: `; :` keeps it) with the server as its child; the
# server's own child outlives it in the background, as a daemonizing panel's would.
# check_timeout_s 2: a check still waiting for the setup lines then is
# killed by stand compat, which must take its panel along.
cat >"$dir/target.json" <<JSON
{"config": {"command": ["sh", "-c", "python3 -m http.server $port --bind 127.0.0.1 >/dev/null 2>&1 & sleep 300 & wait; : $marker"],
            "port": $port, "agent_port": $((port + 1)), "node_command": [], "setup_command": []},
 "wrong_credentials": {"password": "nope"}, "users": 2, "ready_timeout_s": 10, "check_timeout_s": 2}
JSON
set +e
timeout 300 "$stand" compat mistgate --plugin-path "$plugins" --target-config "$dir/target.json" >"$dir/out" 2>&1
rc=$?
set -e
[[ $rc == 1 ]] || { cat "$dir/out"; echo "expected stand compat to fail (exit 1), got $rc"; exit 1; }
grep -q 'FAIL' "$dir/out" || { cat "$dir/out"; echo "no check failed"; exit 1; }
sleep 0.5
left=$(pgrep -f "$marker" || true)
left+=$(pgrep -f "http.server $port" || true)
if [[ -n $left ]]; then
  ps -o pid,ppid,pgid,args -p $(echo $left | tr '\n' ' ') || true
  echo "stand compat left processes running (above)"
  exit 1
fi
if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
  echo "port $port still accepts connections after stand compat exited"
  exit 1
fi
echo "ok: $(grep -c FAIL "$dir/out") checks failed, nothing left running, port $port free"
