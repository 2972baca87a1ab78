# shellcheck shell=bash
# Sourced by the perf scripts: the CPU time the hypervisor gave to others
# (steal, /proc/stat) while a round ran. A VM whose CPUs were stolen from
# ran the clients slower in wall time and skews their ratios; the scripts
# print it with each round and say when it passed STEAL_WARN_PCT (5).
#   steal_mark          prints "TICKS SECONDS" (all CPUs' steal ticks, now)
#   steal_pct MARK      the steal since MARK, in % of all CPUs' time
steal_mark() { echo "$(awk '/^cpu /{ print $9 }' /proc/stat) $(date +%s.%N)"; }
steal_pct() {
  local ticks0 t0
  read -r ticks0 t0 <<<"$1"
  awk -v t0="$ticks0" -v s0="$t0" -v t1="$(awk '/^cpu /{ print $9 }' /proc/stat)" -v s1="$(date +%s.%N)" \
    -v hz="$(getconf CLK_TCK)" -v cpus="$(nproc)" \
    'BEGIN { wall = s1 - s0; printf "%.1f", (wall > 0 ? (t1 - t0) / hz / (wall * cpus) * 100 : 0) }'
}
STEAL_WARN_PCT=${STEAL_WARN_PCT:-5}
