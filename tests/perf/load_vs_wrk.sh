#!/usr/bin/env bash
# stand load (both HTTP/1.1 engines: io_uring and Asio) versus wrk against
# one nginx on loopback (`return 200`, one worker, no access log): the same
# -t/-c/-d, ROUNDS interleaved rounds (the order rotates), each generator's
# CPU measured by /usr/bin/time (user and system of the whole process, per
# request, printed apart), then an open-model run of each engine at a fixed
# rate for its send lag. Not part of ctest or CI.
#
#   tests/perf/load_vs_wrk.sh [STAND_BINARY]        (default build/bin/stand)
#   THREADS=2 CONNECTIONS=50 DURATION=10s ROUNDS=3 RATE=auto PIN=auto tests/perf/load_vs_wrk.sh
#
# RATE=auto uses half of wrk's median req/s; RATE=0 skips the open-model run.
# PIN=auto puts nginx on the first CPU and every generator on the others (on
# two or more CPUs), so that they never share one; PIN=off leaves it to the
# scheduler.
# Needs the Debian packages nginx, wrk and time. Generators and nginx share
# the machine's cores: compare the CPU per request, and run it on a quiet box.
set -euo pipefail

STAND=${1:-build/bin/stand}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-50}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
RATE=${RATE:-auto}
PIN=${PIN:-auto}
NGINX=${NGINX:-/usr/sbin/nginx}
WRK=${WRK:-wrk}

die() { echo "load_vs_wrk: $*" >&2; exit 1; }
[[ -x $STAND ]] || die "no stand binary at $STAND"
[[ -x $NGINX ]] || die "nginx not found ($NGINX): apt-get install nginx"
command -v "$WRK" >/dev/null || die "wrk not found: apt-get install wrk"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"

# shellcheck source=tests/perf/lib/nginx_return200.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nginx_return200.sh"
work=$(mktemp -d /tmp/stand-load-vs-wrk-XXXXXX)
cleanup() {
  stop_nginx
  rm -rf "$work"
}
trap cleanup EXIT

server_cpus=() client_cpus=()
if [[ $PIN == auto ]] && (($(nproc) >= 2)) && command -v taskset >/dev/null; then
  server_cpus=(taskset -c 0) client_cpus=(taskset -c "1-$(($(nproc) - 1))")
elif [[ $PIN != off && $PIN != auto ]]; then
  die "PIN=$PIN: expected auto or off"
fi
start_nginx_return200 "$work" "${server_cpus[@]}"

# shellcheck source=tests/perf/lib/numbers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/numbers.sh"
json_num() { grep -oE "\"$2\":[0-9.eE+-]+" "$1" | head -1 | cut -d: -f2 | awk '{ printf "%.10g", $1 }'; }

# Sets <name>_requests, _rps, _user_us, _sys_us, _us (CPU per request).
per_request() {  # NAME REQUESTS RPS TIMEFILE
  local user sys
  read -r user sys <"$4"
  printf -v "$1_requests" '%s' "$2"
  printf -v "$1_rps" '%s' "$3"
  printf -v "$1_user_us" '%s' "$(calc "$user * 1e6 / $2")"
  printf -v "$1_sys_us" '%s' "$(calc "$sys * 1e6 / $2")"
  printf -v "$1_us" '%s' "$(calc "($user + $sys) * 1e6 / $2")"
}
run_wrk() {
  /usr/bin/time -f '%U %S' -o "$work/wrk.time" "${client_cpus[@]}" "$WRK" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$url" >"$work/wrk.out"
  per_request wrk "$(grep -oE '^ *[0-9]+ requests in' "$work/wrk.out" | awk '{ print $1 }')" \
    "$(grep -oE 'Requests/sec: *[0-9.]+' "$work/wrk.out" | awk '{ print $2 }')" "$work/wrk.time"
}
run_stand() {  # ENGINE (uring or asio)
  /usr/bin/time -f '%U %S' -o "$work/$1.time" "${client_cpus[@]}" "$STAND" load "$url" -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" \
    --engine "$1" --json >"$work/$1.json"
  grep -q "\"engine\":\"$([[ $1 == uring ]] && echo io_uring || echo asio)\"" "$work/$1.json" ||
    die "stand load --engine $1 ran another engine: $(grep -oE '"engine[a-z_]*":"[^"]*"' "$work/$1.json" | tr '\n' ' ')"
  per_request "$1" "$(json_num "$work/$1.json" completed)" "$(json_num "$work/$1.json" requests_per_s)" "$work/$1.time"
}

echo "stand load (io_uring, asio) vs wrk: -t $THREADS -c $CONNECTIONS -d $DURATION, $ROUNDS rounds, nginx $("$NGINX" -v 2>&1 | sed 's/.*\///')"
echo "machine: $(nproc) cores, kernel $(uname -r), load average before: $(cut -d' ' -f1-3 /proc/loadavg)," \
     "${server_cpus[*]:-unpinned} nginx, ${client_cpus[*]:-unpinned} generators"
echo "CPU per request in us as user+system=total; ratio = that engine's total / wrk's total in the same round"
printf '%-6s %10s %10s %10s  %-20s %-20s %-20s %7s %7s\n' round wrk_r/s uring_r/s asio_r/s wrk_us uring_us asio_us uring/w asio/w
declare -a col_wrk col_uring col_asio col_ru col_ra col_wrps col_urps col_arps
order=(wrk uring asio)
for round in $(seq "$ROUNDS"); do
  for k in 0 1 2; do
    g=${order[$(((k + round) % 3))]}
    if [[ $g == wrk ]]; then run_wrk; else run_stand "$g"; fi
  done
  ru=$(calc "$uring_us / $wrk_us") ra=$(calc "$asio_us / $wrk_us")
  printf '%-6s %10.0f %10.0f %10.0f  %-20s %-20s %-20s %7s %7s\n' "$round" "$wrk_rps" "$uring_rps" "$asio_rps" \
    "$wrk_user_us+$wrk_sys_us=$wrk_us" "$uring_user_us+$uring_sys_us=$uring_us" "$asio_user_us+$asio_sys_us=$asio_us" "$ru" "$ra"
  col_wrk+=("$wrk_us") col_uring+=("$uring_us") col_asio+=("$asio_us") col_ru+=("$ru") col_ra+=("$ra")
  col_wrps+=("$wrk_rps") col_urps+=("$uring_rps") col_arps+=("$asio_rps")
done
printf '%-6s %10.0f %10.0f %10.0f  %-20s %-20s %-20s %7s %7s\n' median "$(median_of "${col_wrps[@]}")" "$(median_of "${col_urps[@]}")" \
  "$(median_of "${col_arps[@]}")" "$(median_of "${col_wrk[@]}")" "$(median_of "${col_uring[@]}")" "$(median_of "${col_asio[@]}")" \
  "$(median_of "${col_ru[@]}")" "$(median_of "${col_ra[@]}")"
echo "uring/w, asio/w = stand CPU per request / wrk CPU per request (< 1: cheaper than wrk)"

if [[ $RATE != 0 ]]; then
  [[ $RATE == auto ]] && RATE=$(median_of "${col_wrps[@]}" | awk '{ printf "%d", $1 / 2 }')
  for engine in uring asio; do
    "$STAND" load "$url" -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" --rate "$RATE" --engine "$engine" --json >"$work/rate.json"
    lag=$(grep -oE '"send_lag_us":\{[^}]*\}' "$work/rate.json")
    echo "open model --rate $RATE, $engine: sent $(json_num "$work/rate.json" sent) of $(json_num "$work/rate.json" offered)" \
         "offered, late (>1ms) $(json_num "$work/rate.json" late), unsent $(json_num "$work/rate.json" unsent)," \
         "send lag p50 $(grep -oE '"p50":[0-9]+' <<<"$lag" | cut -d: -f2)us" \
         "p99 $(grep -oE '"p99":[0-9]+' <<<"$lag" | cut -d: -f2)us max $(grep -oE '"max":[0-9]+' <<<"$lag" | cut -d: -f2)us," \
         "cpu $(json_num "$work/rate.json" us_per_request)us/request"
  done
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
