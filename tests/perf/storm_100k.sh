#!/usr/bin/env bash
# A subscription storm at scale: `stand load` over LINKS links (default
# 100,000), link k from its own loopback source address (--bind-prefix 127:
# 127.0.1.1, 127.0.1.2, ... 127.1.145.250), open model, against one nginx
# (`return 200`). Prints, per rate: offered, sent and completed per second,
# whether sent and completed are within 1 % of the offered rate, errors, and
# the generator's memory per link: (peak RSS with LINKS links - peak RSS with
# BASE_LINKS links, same rate and engine) / (LINKS - BASE_LINKS). Not part
# of ctest or CI.
#
#   tests/perf/storm_100k.sh [STAND_BINARY]           (default build/bin/stand)
#   LINKS=100000 RATES="300 max" ENGINE=auto tests/perf/storm_100k.sh
#
# A rate's window is long enough for every link to be requested once
# (LINKS / rate seconds, at least MIN_S): 334 s at 300/s. "max" searches for
# the highest rate that still holds sent and completed within 1 % of
# offered: it doubles from MAX_FROM (default 1000/s) until a rate fails, then
# bisects between the last pass and the first failure (STEPS times).
# Needs nginx and /usr/bin/time. nginx and the generator get a CPU each
# (taskset) where there are two.
set -euo pipefail

STAND=${1:-build/bin/stand}
LINKS=${LINKS:-100000}
BASE_LINKS=${BASE_LINKS:-1000}
RATES=${RATES:-300 max}
ENGINE=${ENGINE:-auto}
CONNECTIONS=${CONNECTIONS:-256}
MIN_S=${MIN_S:-10}
MAX_FROM=${MAX_FROM:-1000}
STEPS=${STEPS:-3}
NGINX=${NGINX:-/usr/sbin/nginx}

die() { echo "storm_100k: $*" >&2; exit 1; }
[[ -x $STAND ]] || die "no stand binary at $STAND"
[[ -x $NGINX ]] || die "nginx not found ($NGINX): apt-get install nginx"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"
((LINKS > BASE_LINKS)) || die "LINKS ($LINKS) must exceed BASE_LINKS ($BASE_LINKS)"

# shellcheck source=tests/perf/lib/nginx_return200.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nginx_return200.sh"
work=$(mktemp -d /tmp/stand-storm-XXXXXX)
cleanup() {
  stop_nginx
  rm -rf "$work"
}
trap cleanup EXIT

server_cpus=() client_cpus=()
if (($(nproc) >= 2)) && command -v taskset >/dev/null; then
  server_cpus=(taskset -c 0) client_cpus=(taskset -c 1)
fi
start_nginx_return200 "$work" "${server_cpus[@]}"
ulimit -n 65536 2>/dev/null || true

# Subscription-like links: a 22-character token per user, as panels hand out.
write_links() {  # COUNT FILE
  python3 - "$1" "$2" "$url" <<'PY'
import hashlib, sys
n, path, base = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(path, "w") as f:
    for k in range(n):
        f.write(f"{base}sub/{hashlib.sha256(str(k).encode()).hexdigest()[:22]}\n")
PY
}
write_links "$LINKS" "$work/links.txt"
write_links "$BASE_LINKS" "$work/base-links.txt"

# Runs one storm; prints "PASS|FAIL offered sent/s completed/s errors rss_kib late unsent".
storm() {  # LINKS_FILE LINK_COUNT RATE
  local seconds=$(( ($2 + $3 - 1) / $3 ))
  ((seconds < MIN_S)) && seconds=$MIN_S
  "${client_cpus[@]}" /usr/bin/time -f '%M' -o "$work/rss" \
    "$STAND" load --urls "$1" --bind-prefix 127 --rate "$3" -t 1 -c "$CONNECTIONS" -d "${seconds}s" \
    --engine "$ENGINE" --json >"$work/storm.json" 2>"$work/storm.err" || true
  python3 - "$work/storm.json" "$(cat "$work/rss")" "$3" "$2" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"FAIL 0 0 0 0 {sys.argv[2]} 0 0 no-result:{e}")
    sys.exit(0)
rate, links = float(sys.argv[3]), int(sys.argv[4])
q, w = r["requests"], r["window_s"]
sent, done = q["sent"] / w, q["completed"] / w
errors = q["errors"]
never = r["requests_per_link_summary"]["never_requested"]
ok = abs(sent - rate) / rate <= 0.01 and abs(done - rate) / rate <= 0.01 and errors == 0 and r["links"] == links
print(f"{'PASS' if ok else 'FAIL'} {q['offered'] / w:.1f} {sent:.1f} {done:.1f} {errors} {sys.argv[2]} {q['late']} "
      f"{q['unsent']} never_requested={never} engine={r['engine']}")
PY
}

report() {  # RATE
  local full base
  full=$(storm "$work/links.txt" "$LINKS" "$1")
  base=$(storm "$work/base-links.txt" "$BASE_LINKS" "$1")
  read -r verdict offered sent done errors rss late unsent rest <<<"$full"
  local base_rss
  base_rss=$(awk '{ print $6 }' <<<"$base")
  local per_link
  per_link=$(awk -v a="$rss" -v b="$base_rss" -v n="$LINKS" -v m="$BASE_LINKS" 'BEGIN { printf "%.0f", (a - b) * 1024 / (n - m) }')
  printf '%-8s %-5s offered %8s/s  sent %8s/s  completed %8s/s  errors %s  late %s  unsent %s  peak RSS %s KiB (%s links: %s KiB)  %s bytes/link  %s\n' \
    "$1/s" "$verdict" "$offered" "$sent" "$done" "$errors" "$late" "$unsent" "$rss" "$BASE_LINKS" "$base_rss" "$per_link" "$rest"
  [[ $verdict == PASS ]]
}

echo "storm over $LINKS links from $LINKS source addresses (127.0.1.1 ...), engine $ENGINE, -c $CONNECTIONS, nginx on $url"
for rate in $RATES; do
  if [[ $rate != max ]]; then
    report "$rate" || true
    continue
  fi
  pass=0 fail=0 r=$MAX_FROM
  while :; do
    if report "$r"; then pass=$r; r=$((r * 2)); else fail=$r; break; fi
    ((r > 1000000)) && break
  done
  for _ in $(seq "$STEPS"); do
    ((fail == 0 || fail - pass <= pass / 20)) && break
    r=$(((pass + fail) / 2))
    if report "$r"; then pass=$r; else fail=$r; fi
  done
  echo "highest rate held within 1 %: ${pass}/s (first failure: ${fail}/s)"
done
