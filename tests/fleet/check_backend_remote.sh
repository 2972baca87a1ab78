#!/usr/bin/env bash
# The scenario's backend on a host (rig.sh: one sshd host, be): nginx here,
# in this machine's box, proxies to `stand backend` running on the host's
# address ("backend": {"host": URL}), so the upstream never shares this
# machine's CPUs. The repetition is a local one's: the backend's counters
# (from its control port there) give backend_conns and the requests it
# served, its CPU (its /proc/PID/stat there) backend_cpu_us_per_req; the
# host's eth0 carried the proxied requests; the backend's ready line (with
# the host's URL) is in the repetition and its output in the run's backend
# log; nothing of it is left on the host after the run, nor after Ctrl-C.
# A backend host without this stand is refused before anything runs.
#   check_backend_remote.sh STAND PLUGINS NET
set -uo pipefail
stand=$1 plugins=$2 net=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/test_lib.sh"
fleet_rig backend 2 "$net"
fleet_push "be=ssh://root@$net.11"

port=$((19000 + RANDOM % 100))
requests=1200
python3 - "$dir/scenario.json" "$net" "$port" "$requests" <<'PY'
import json, sys
path, net, port, requests = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
json.dump({
    "schema_version": 1, "name": "backend-remote", "plugins": ["nginx"],
    "backend": {"body_bytes": 64, "host": f"ssh://root@{net}.11"}, "repetitions": 1, "sample_interval_ms": 100,
    "phases": [{"name": "run", "steps": [
        {"step": "install"},
        {"step": "configure", "knobs": {"listen": {"host": "127.0.0.1", "port": port}}},
        {"step": "start"}, {"step": "wait_ready"},
        {"step": "load", "name": "proxied", "duration_s": 3, "rate": requests / 3, "connections": 8},
        {"step": "stop"}, {"step": "wipe"}]}]}, open(path, "w"), indent=1)
PY
rx_packets() { "$here/rig.sh" exec "$dir/rig" 1 ip -s -j link show eth0 | python3 -c \
  'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["packets"])'; }
run() { "$stand" run "$@" --plugin-path "$plugins" "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err"; }
left_on_host() { pgrep -f "backend --allow-remote --listen $net.11" >/dev/null ||
                 [[ -n $(ls -A "$dir/rig/home_1/.stand/backends" 2>/dev/null) ]]; }

# Refused before anything runs: a backend host without this stand.
sed "s|root@$net.11|root@$net.12|" "$dir/scenario.json" >"$dir/bare.json"
run "$dir/bare.json" --run-dir "$dir/r0"
[[ $? == 2 ]] && grep -q "refused the backend host (nothing ran)" "$dir/err" && grep -q "stand fleet push" "$dir/err" ||
  fail "a backend host without this stand was not refused"
[[ -e $dir/r0/reps ]] && fail "a refused run wrote repetitions"
run --check "$dir/scenario.json"
[[ $? == 0 ]] && grep -q "backend host (ssh://root@$net.11:22): ok" "$dir/out" || fail "--check did not check the backend host"

before=$(rx_packets)
run "$dir/scenario.json" --run-dir "$dir/run" || fail "the run with the backend on a host failed (exit $?)"
after=$(rx_packets)
python3 - "$dir/run" "$net" "$requests" "$((after - before))" <<'PY' || fail "the remote backend's figures are not as documented"
import glob, json, sys
run, net, requests, rx = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
reps = glob.glob(f"{run}/reps/*.json")
assert len(reps) == 1, reps
rep = json.load(open(reps[0]))
assert rep["status"] == "ok", (rep["status"], rep.get("reason"))
m = rep["metrics"]
assert abs(m["proxied.rps"] - requests / 3) < 0.1 * requests / 3 and m["proxied.error_pct"] == 0, m
assert m["proxied.backend_conns"] >= 1 and 0.95 <= m["proxied.backend_requests_per_req"] <= 1.05, m
assert m["proxied.backend_cpu_us_per_req"] > 0 and m["proxied.box_cpu_us_per_req"] > 0, m
backend = rep["backend"]
assert backend["host"] == f"ssh://root@{net}.11:22" and backend["listen"].startswith(f"{net}.11:"), backend
assert rx >= 0.95 * requests, (rx, requests)
logs = glob.glob(f"{run}/backend-*.log")
assert logs and '"listen"' in open(logs[0]).read(), logs
print(f"ok: nginx here, the backend on the host: {m['proxied.rps']:.0f}/s p50 {m['proxied.p50_ms']:.2f} ms, "
      f"{m['proxied.backend_conns']:.0f} backend connections, backend {m['proxied.backend_cpu_us_per_req']:.1f} us/req "
      f"there, nginx {m['proxied.box_cpu_us_per_req']:.1f} us/req here; the host's eth0 received {rx} packets")
PY
left_on_host && fail "the backend or its files are left on the host"

# Ctrl-C: exit 130, the backend gone from the host.
sed 's/"duration_s": 3/"duration_s": 30/' "$dir/scenario.json" >"$dir/long.json"
"$stand" run "$dir/long.json" --run-dir "$dir/run-int" --plugin-path "$plugins" "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 1 300); do grep -qs "proxied" "$dir/err" && break; sleep 0.1; done
sleep 1
kill -INT "$pid"
wait "$pid"
code=$?
[[ $code == 130 ]] || fail "Ctrl-C exited $code (expected 130)"
for _ in $(seq 1 50); do left_on_host || break; sleep 0.1; done
left_on_host && fail "the backend or its files are left on the host after Ctrl-C"
echo "ok: the backend on a remote host, nginx here; refusals before anything ran; Ctrl-C leaves nothing there"
