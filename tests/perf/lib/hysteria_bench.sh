# shellcheck shell=bash disable=SC2034,SC2154  # sets variables for its caller, reads the caller's
# Sourced by the perf scripts that drive the Go Hysteria 2 client
# (tests/hysteria2-client) beside `stand tunnel`: both through one test
# server (tests/hysteria2-server) to one sink (`stand backend`) on loopback.
#   require_free_ports PORT...  dies unless each port is free on 127.0.0.1 (TCP and UDP)
#   pin_bench_cpus              resolves $PIN (auto: the last CPU; off; a CPU) into the
#                               command prefixes client_cpus and server_cpus, and
#                               others (the server's CPUs, comma-separated)
#   build_hysteria_peers WORK   builds WORK/hy2client and, unless $HY2SERVER names one,
#                               WORK/hy2server; writes WORK/{cert,key}.pem and WORK/users
#   start_hysteria_bench WORK SINK_PORT SINK_CONTROL SERVER_PORT SERVER_CONTROL
#                               starts the sink and the server on server_cpus (their
#                               pids appended to pids) and sets sink, server and the
#                               command lines stand_client and go_client (the work of
#                               a run, --streams and -d, is the caller's)
#   warm_up_hysteria_bench WORK one second of each client on client_cpus, not counted
#                               (the server's first connection is slower); leaves the
#                               Go client's JSON in WORK/go.json
# Needs $STAND, $here (tests/), a die() function and an array pids.

require_free_ports() {
  local p
  for p in "$@"; do
    python3 - "$p" <<'PY' || die "port $p on 127.0.0.1 is in use (TCP or UDP)"
import socket, sys
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    s = socket.socket(socket.AF_INET, kind)
    if kind == socket.SOCK_STREAM:  # as the servers listen: a connection in TIME_WAIT does not hold the port
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try: s.bind(("127.0.0.1", int(sys.argv[1])))
    except OSError: sys.exit(1)
    finally: s.close()
PY
  done
}

# Pinning: clients on one CPU, the server and the sink on the others.
pin_bench_cpus() {
  local cpus cpu_list
  client_cpus=() server_cpus=() others=
  cpus=$(python3 -c "import os; print(' '.join(map(str, sorted(os.sched_getaffinity(0)))))")
  read -ra cpu_list <<<"$cpus"
  case $PIN in
    off) ;;
    auto) if ((${#cpu_list[@]} >= 2)); then PIN=${cpu_list[-1]}; else PIN=off; fi ;;
    *) [[ " $cpus " == *" $PIN "* ]] || die "PIN=$PIN is not one of this process's CPUs ($cpus)" ;;
  esac
  if [[ $PIN != off ]]; then
    others=$(python3 -c "import os; print(','.join(str(c) for c in sorted(os.sched_getaffinity(0)) if c != $PIN))")
    client_cpus=(taskset -c "$PIN")
    [[ -n $others ]] && server_cpus=(taskset -c "$others")
  fi
  return 0
}

build_hysteria_peers() {
  local work=$1
  "$here/build_go_program.sh" "$here/hysteria2-client" "$work/hy2client" ||
    die "building the Go client failed (tests/build_go_program.sh tests/hysteria2-client)"
  if [[ -z $HY2SERVER ]]; then
    "$here/hysteria2-server/build.sh" "$work/hy2server" || die "building the test server failed (tests/hysteria2-server/build.sh)"
    HY2SERVER=$work/hy2server
  fi
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" \
    -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null ||
    die "openssl could not make the test certificate"
  echo bench >"$work/users"
}

start_hysteria_bench() {
  local work=$1 sink_port=$2 sink_control=$3 server_port=$4 server_control=$5
  "${server_cpus[@]}" "$STAND" backend --listen "127.0.0.1:$sink_port" --control "127.0.0.1:$sink_control" \
    >"$work/sink.out" 2>"$work/sink.err" &
  pids+=($!)
  "${server_cpus[@]}" "$HY2SERVER" --listen "127.0.0.1:$server_port" --control "127.0.0.1:$server_control" \
    --cert "$work/cert.pem" --key "$work/key.pem" --users "$work/users" >"$work/server.out" 2>"$work/server.err" &
  pids+=($!)
  for _ in $(seq 100); do
    [[ -s $work/sink.out ]] && grep -q '^ready' "$work/server.out" 2>/dev/null && break
    sleep 0.1
  done
  [[ -s $work/sink.out ]] || die "the sink (stand backend) did not start: $(cat "$work/sink.err")"
  grep -q '^ready' "$work/server.out" || die "the test server did not start: $(cat "$work/server.err")"
  sink=127.0.0.1:$sink_port
  server=127.0.0.1:$server_port
  stand_client=("$STAND" tunnel "hysteria2://bench@$server/?insecure=1" --sink "$sink")
  go_client=("$work/hy2client" --server "$server" --auth bench --insecure --sink "$sink")
}

warm_up_hysteria_bench() {
  local work=$1
  "${client_cpus[@]}" "${go_client[@]}" -d 1s >"$work/go.json" 2>&1 ||
    die "the Go client's first run failed: $(cat "$work/go.json")"
  "${client_cpus[@]}" "${stand_client[@]}" -d 1s --json >"$work/stand.json" 2>&1 ||
    die "stand tunnel's first run failed: $(head -c 600 "$work/stand.json")"
}
