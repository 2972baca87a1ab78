#!/usr/bin/env bash
# Where a load generator's CPU goes, wrk against `stand load --engine uring`
# on the same loopback nginx as load_vs_wrk.sh (`return 200`, one worker):
# perf samples each generator's own CPU clock (kernel and user) and puts
# every sampled function in one of a few groups (the TCP/IP path, the
# scheduler and wake-ups, io_uring, epoll, system call entry, user code);
# a second run without perf gives the CPU per request, so each group is
# printed in us per request and as a share of wrk's whole CPU per request.
# It shows what bounds a generator on loopback: the TCP/IP path, which every
# client pays (a little less when sends are batched), and what is left
# beside it. Not part of ctest or CI.
#
#   tests/perf/load_kernel_profile.sh [STAND_BINARY]   (default build/bin/stand)
#   CONNECTIONS=50 DURATION=8s ROUNDS=3 tests/perf/load_kernel_profile.sh
#
# Needs the Debian packages nginx, wrk, time and linux-perf, root (or
# kernel.perf_event_paranoid <= 1) and two or more CPUs: nginx on the first,
# the generator on the second. Groups come from function names, so a
# sample the kernel delivers late (after a section with interrupts off, as
# in a VM) lands in the function that turned them back on; the groups are
# approximate to a few percent, the per-request totals are not.
set -euo pipefail

STAND=${1:-build/bin/stand}
CONNECTIONS=${CONNECTIONS:-50}
DURATION=${DURATION:-8s}
ROUNDS=${ROUNDS:-3}
NGINX=${NGINX:-/usr/sbin/nginx}
PERF=${PERF:-perf}

die() { echo "load_kernel_profile: $*" >&2; exit 1; }
[[ -x $STAND ]] || die "no stand binary at $STAND"
[[ -x $NGINX ]] || die "nginx not found ($NGINX): apt-get install nginx-light"
command -v wrk >/dev/null || die "wrk not found: apt-get install wrk"
command -v "$PERF" >/dev/null || die "perf not found: apt-get install linux-perf"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"
(($(nproc) >= 2)) || die "needs two CPUs (nginx on one, the generator on the other)"
"$PERF" stat -e cpu-clock -o /dev/null -- true 2>/dev/null ||
  die "perf cannot count here: run as root or lower kernel.perf_event_paranoid"

# shellcheck source=tests/perf/lib/nginx_return200.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nginx_return200.sh"
work=$(mktemp -d /tmp/stand-load-profile-XXXXXX)
cleanup() {
  stop_nginx
  rm -rf "$work"
}
trap cleanup EXIT
start_nginx_return200 "$work" taskset -c 0

generator() {  # NAME: the command line of that generator
  case $1 in
    wrk) echo wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "$url" ;;
    uring) echo "$STAND" load "$url" -t 1 -c "$CONNECTIONS" -d "$DURATION" --engine uring --json ;;
  esac
}
requests_of() {  # NAME OUTPUT_FILE
  if [[ $1 == wrk ]]; then grep -oE '^ *[0-9]+ requests in' "$2" | awk '{ print $1 }'
  else grep -oE '"completed":[0-9]+' "$2" | head -1 | cut -d: -f2; fi
}

# The share of each group in a perf.data, as "group percent" lines.
groups_of() {  # PERF_DATA
  "$PERF" report -i "$1" --stdio --no-children --sort dso,sym -g none 2>/dev/null | awk '
    /^ +[0-9.]+%/ {
      pct = $1; sub(/%/, "", pct); kind = $3; sym = $4
      if (kind == "[.]") g = "user"
      else if (sym ~ /tcp|(^|_)ip_|ipv4|inet|skb|(^|_)sk_|sock|net|(^|_)dev_|loopback|bbr|cubic|(^|_)nf_|conntrack|siphash|dst_|eth_type|raw_local|copy|csum|page_frag|slab|kmalloc|kfree|kmem|memcg|refill_stock|backlog|bh_enable|iter/) g = "tcp_ip"
      else if (sym ~ /(^|_)io_|uring|llist|kbuf/) g = "io_uring"
      else if (sym ~ /^ep_|epoll|poll/) g = "epoll"
      else if (sym ~ /syscall|^entry_|exit_to_user|^__x64_sys|fdget|fget|fput|^vfs_|rw_verify|security_|apparmor|thunk|check_object_size|import_ubuf/) g = "syscall"
      else if (sym ~ /task_switch|schedule|wake|enqueue|dequeue|pick_next|update_curr|update_load|select_task|ttwu|switch|sched|idle|hrtimer|tick|rcu|irq|psi_|_raw_spin/) g = "sched_wakeup"
      else g = "other"
      share[g] += pct
    }
    END { for (g in share) printf "%s %.2f\n", g, share[g] }'
}

# shellcheck source=tests/perf/lib/numbers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/numbers.sh"

groups=(tcp_ip sched_wakeup io_uring epoll syscall user other)
declare -A us  # "<generator> <group>" -> us per request, one line per round
declare -A total
echo "load_kernel_profile: -t 1 -c $CONNECTIONS -d $DURATION, $ROUNDS rounds, nginx on CPU 0, generator on CPU 1," \
     "kernel $(uname -r), tcp_congestion_control $(cat /proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null || echo '?')"
for round in $(seq "$ROUNDS"); do
  for g in wrk uring; do
    read -r -a cmd <<<"$(generator "$g")"
    "$PERF" record -q -e cpu-clock -F 2000 -o "$work/$g.data" -- taskset -c 1 "${cmd[@]}" >"$work/$g.profiled" 2>&1 ||
      die "$g under perf failed: $(tail -3 "$work/$g.profiled")"
    /usr/bin/time -f '%U %S' -o "$work/$g.time" taskset -c 1 "${cmd[@]}" >"$work/$g.out" 2>&1 ||
      die "$g failed: $(tail -3 "$work/$g.out")"
    requests=$(requests_of "$g" "$work/$g.out")
    [[ -n $requests && $requests -gt 0 ]] || die "$g completed no request: $(tail -3 "$work/$g.out")"
    read -r user sys <"$work/$g.time"
    per_request=$(calc "($user + $sys) * 1e6 / $requests")
    total[$g]+="$per_request "
    while read -r group pct; do
      us["$g $group"]+="$(calc "$per_request * $pct / 100") "
    done < <(groups_of "$work/$g.data")
  done
  echo "round $round: wrk $(echo "${total[wrk]}" | awk '{ print $NF }') us/request, uring $(echo "${total[uring]}" | awk '{ print $NF }') us/request"
done

wrk_total=$(median_of ${total[wrk]})
printf '\n%-14s %10s %10s %16s\n' "medians" "wrk_us" "uring_us" "uring/wrk_total"
for group in "${groups[@]}"; do
  w=$(median_of ${us["wrk $group"]:-0}) u=$(median_of ${us["uring $group"]:-0})
  printf '%-14s %10s %10s %16s\n' "$group" "$w" "$u" "$(calc "$u / $wrk_total")"
done
uring_total=$(median_of ${total[uring]})
printf '%-14s %10s %10s %16s\n' total "$wrk_total" "$uring_total" "$(calc "$uring_total / $wrk_total")"
echo "tcp_ip: the TCP/IP path (on loopback both directions' delivery run in the sending process; netfilter's conntrack"
echo "where the machine has rules), which every client pays; other: mostly clock reads and timers;"
echo "a generator at 0.7x wrk would need everything but tcp_ip under $(calc "0.7 * $wrk_total - $(median_of ${us["uring tcp_ip"]:-0})") us per request."
