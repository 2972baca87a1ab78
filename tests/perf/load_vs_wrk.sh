#!/usr/bin/env bash
# stand load versus wrk against one nginx on loopback (`return 200`, one
# worker, no access log): the same -t/-c/-d, ROUNDS interleaved rounds (the
# order alternates), each generator's CPU measured by /usr/bin/time (user +
# system of the whole process), then an open-model run of stand at a fixed
# rate for its send lag. Not part of ctest or CI.
#
#   tests/perf/load_vs_wrk.sh [STAND_BINARY]        (default build/bin/stand)
#   THREADS=2 CONNECTIONS=50 DURATION=10s ROUNDS=3 RATE=auto tests/perf/load_vs_wrk.sh
#
# RATE=auto uses half of wrk's median req/s; RATE=0 skips the open-model run.
# Needs the Debian packages nginx, wrk and time. Generators and nginx share
# the machine's cores: compare the CPU per request, and run it on a quiet box.
set -euo pipefail

STAND=${1:-build/bin/stand}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-50}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
RATE=${RATE:-auto}
NGINX=${NGINX:-/usr/sbin/nginx}
WRK=${WRK:-wrk}

die() { echo "load_vs_wrk: $*" >&2; exit 1; }
[[ -x $STAND ]] || die "no stand binary at $STAND"
[[ -x $NGINX ]] || die "nginx not found ($NGINX): apt-get install nginx"
command -v "$WRK" >/dev/null || die "wrk not found: apt-get install wrk"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"

work=$(mktemp -d /tmp/stand-load-vs-wrk-XXXXXX)
nginx_pid=
cleanup() {
  if [[ -n $nginx_pid ]]; then kill -QUIT "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A free port: nothing answers on it.
port=
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 40000))
  if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then port=$p; break; fi
done
[[ -n $port ]] || die "no free port"

mkdir -p "$work/tmp"
cat >"$work/nginx.conf" <<EOF
worker_processes 1;
error_log $work/error.log warn;
pid $work/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    location / { return 200 "ok"; }
  }
}
EOF
"$NGINX" -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 100); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  sleep 0.05
done
(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null || die "nginx did not start: $(cat "$work/error.log")"
url=http://127.0.0.1:$port/

calc() { awk "BEGIN { printf \"%.2f\", $* }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_of() { awk '{ printf "%.3f", $1 + $2 }' "$1"; }   # user + system seconds
json_num() { grep -oE "\"$2\":[0-9.eE+-]+" "$1" | head -1 | cut -d: -f2 | awk '{ printf "%.10g", $1 }'; }

run_wrk() {
  /usr/bin/time -f '%U %S' -o "$work/wrk.time" "$WRK" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$url" >"$work/wrk.out"
  wrk_requests=$(grep -oE '^ *[0-9]+ requests in' "$work/wrk.out" | awk '{ print $1 }')
  wrk_rps=$(grep -oE 'Requests/sec: *[0-9.]+' "$work/wrk.out" | awk '{ print $2 }')
  wrk_cpu=$(cpu_of "$work/wrk.time")
}
run_stand() {
  /usr/bin/time -f '%U %S' -o "$work/stand.time" "$STAND" load "$url" -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" \
    --json >"$work/stand.json"
  stand_requests=$(json_num "$work/stand.json" completed)
  stand_rps=$(json_num "$work/stand.json" requests_per_s)
  stand_cpu=$(cpu_of "$work/stand.time")
}

echo "stand load vs wrk: -t $THREADS -c $CONNECTIONS -d $DURATION, $ROUNDS rounds, nginx $("$NGINX" -v 2>&1 | sed 's/.*\///')"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %12s %12s %14s %14s %10s %10s\n' round wrk_req/s stand_req/s wrk_cpu_us/req stand_cpu_us/req cpu_ratio rps_ratio
ratios=() wrk_rpss=() wrk_cpus=() stand_cpus=() rps_ratios=()
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then run_wrk; run_stand; else run_stand; run_wrk; fi
  wrk_us=$(calc "$wrk_cpu * 1e6 / $wrk_requests")
  stand_us=$(calc "$stand_cpu * 1e6 / $stand_requests")
  ratio=$(calc "$stand_us / $wrk_us")
  rps_ratio=$(calc "$stand_rps / $wrk_rps")
  printf '%-6s %12.0f %12.0f %14s %14s %10s %10s\n' "$round" "$wrk_rps" "$stand_rps" "$wrk_us" "$stand_us" "$ratio" "$rps_ratio"
  ratios+=("$ratio") wrk_rpss+=("$wrk_rps") wrk_cpus+=("$wrk_us") stand_cpus+=("$stand_us") rps_ratios+=("$rps_ratio")
done
printf '%-6s %12s %12s %14s %14s %10s %10s\n' median "$(printf '%s\n' "${wrk_rpss[@]}" | median)" - \
  "$(printf '%s\n' "${wrk_cpus[@]}" | median)" "$(printf '%s\n' "${stand_cpus[@]}" | median)" \
  "$(printf '%s\n' "${ratios[@]}" | median)" "$(printf '%s\n' "${rps_ratios[@]}" | median)"
echo "cpu_ratio = stand CPU per request / wrk CPU per request (<= 1: stand is as cheap as wrk)"

if [[ $RATE != 0 ]]; then
  [[ $RATE == auto ]] && RATE=$(printf '%s\n' "${wrk_rpss[@]}" | median | awk '{ printf "%d", $1 / 2 }')
  "$STAND" load "$url" -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" --rate "$RATE" --json >"$work/rate.json"
  lag=$(grep -oE '"send_lag_us":\{[^}]*\}' "$work/rate.json")
  echo "open model --rate $RATE: sent $(json_num "$work/rate.json" sent) of $(json_num "$work/rate.json" offered)" \
       "offered, late (>1ms) $(json_num "$work/rate.json" late), unsent $(json_num "$work/rate.json" unsent)," \
       "send lag p50 $(grep -oE '"p50":[0-9]+' <<<"$lag" | cut -d: -f2)us" \
       "p99 $(grep -oE '"p99":[0-9]+' <<<"$lag" | cut -d: -f2)us max $(grep -oE '"max":[0-9]+' <<<"$lag" | cut -d: -f2)us," \
       "cpu $(json_num "$work/rate.json" us_per_request)us/request"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
