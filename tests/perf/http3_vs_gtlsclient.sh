#!/usr/bin/env bash
# Client CPU per HTTP/3 request: `stand load --http3` beside Debian's
# ngtcp2 example client (gtlsclient, package ngtcp2-client: the same ngtcp2
# + GnuTLS + nghttp3 stack), against one Caddy HTTP/3 site on loopback.
# ROUNDS interleaved rounds (the order alternates). Each round: N GET
# requests on one QUIC connection with STREAMS in flight (gtlsclient opens
# every stream the server allows, 100 with Caddy's quic-go; stand gets
# --streams 100). CPU is user + system of the whole client process
# (/usr/bin/time), divided by N. Prints every round, the medians and the
# ratio stand/gtlsclient. h2load is tried first: Debian 12's build has no
# HTTP/3, and the script says so. Not part of ctest or CI.
#
#   tests/perf/http3_vs_gtlsclient.sh [--requests N] [--rounds R] [--stand BINARY] [--pin CPU]
#
# --pin CPU runs both clients on that CPU (taskset) and Caddy on the others.
set -euo pipefail
N=20000
ROUNDS=5
STAND=build/bin/stand
PIN=
while (($#)); do
  case $1 in
    --requests) N=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --stand) STAND=$2; shift 2 ;;
    --pin) PIN=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in caddy gtlsclient /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install caddy ngtcp2-client time)" >&2; exit 2; }
done
[[ -x $STAND ]] || { echo "no stand binary at $STAND (build first, or --stand)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/stand-h3-bench.XXXXXX)
caddy_pid=
cleanup() { [[ -n $caddy_pid ]] && kill "$caddy_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
port=$("$here/../quic/free_port.py")
client_cpus=() server_cpus=()
if [[ -n $PIN ]]; then
  others=$(python3 -c "import os; print(','.join(str(c) for c in sorted(os.sched_getaffinity(0)) if str(c) != '$PIN'))")
  client_cpus=(taskset -c "$PIN")
  [[ -n $others ]] && server_cpus=(taskset -c "$others")
fi
# shellcheck source=tests/perf/lib/http3_bench.sh
source "$here/lib/http3_bench.sh"
# shellcheck source=tests/perf/lib/steal.sh
source "$here/lib/steal.sh"
start_http3_bench "$dir" "$port" "${server_cpus[@]}"
http3_clients "$N"

if h2load --npn-list h3 -n 10 -c 1 "$url" 2>&1 | grep -q '10 succeeded'; then
  echo "h2load speaks h3 here; this script compares with gtlsclient only"
else
  echo "h2load ($(h2load --version | head -1)) cannot speak h3 here (built without HTTP/3): comparing with gtlsclient"
fi
echo "$N requests per round on one connection, $ROUNDS rounds, Caddy $(caddy version | cut -d' ' -f1)"

run_stand() {
  /usr/bin/time -f "%U %S" -o "$dir/time" "${client_cpus[@]}" "${stand_h3[@]}" >"$dir/stand.json"
  python3 - "$dir/stand.json" "$dir/time" "$N" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); u, s = map(float, open(sys.argv[2]).read().split()[-2:]); n = int(sys.argv[3])
done = r["requests"]["completed"]
if done != n or r["requests"]["errors"]: sys.exit(f"stand: {done} of {n} completed, {r['requests']['errors']} errors")
print(f"{(u + s) * 1e6 / n:.2f} {r['elapsed_s']:.3f}")
PY
}
run_gtls() {
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$dir/time" "${client_cpus[@]}" "${gtls_h3[@]}" >/dev/null 2>"$dir/gtls.err" || { cat "$dir/gtls.err" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 -c "import sys; u,s=map(float,open(sys.argv[1]).read().split()[-2:]); print(f'{(u+s)*1e6/int(sys.argv[2]):.2f} {float(sys.argv[4])-float(sys.argv[3]):.3f}')" \
    "$dir/time" "$N" "$start" "$end"
}

stand_us=() gtls_us=() steals=()
printf '%-6s %18s %18s %7s\n' round "stand us/req (s)" "gtlsclient us/req (s)" "steal%"
for ((i = 1; i <= ROUNDS; i++)); do
  mark=$(steal_mark)
  if ((i % 2)); then a=$(run_stand); b=$(run_gtls); else b=$(run_gtls); a=$(run_stand); fi
  steal=$(steal_pct "$mark")
  stand_us+=("${a%% *}") gtls_us+=("${b%% *}") steals+=("$steal")
  printf '%-6s %11s (%5s) %11s (%5s) %7s\n' "$i" "${a%% *}" "${a##* }" "${b%% *}" "${b##* }" "$steal"
done
python3 - "${stand_us[*]}" "${gtls_us[*]}" "${steals[*]}" "$STEAL_WARN_PCT" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]; b = [float(x) for x in sys.argv[2].split()]
steal = [float(x) for x in sys.argv[3].split()]; warn = float(sys.argv[4])
ma, mb = statistics.median(a), statistics.median(b)
print(f"median client CPU per request: stand {ma:.2f} us, gtlsclient {mb:.2f} us, ratio stand/gtlsclient {ma / mb:.3f}")
print("per-round ratios: " + " ".join(f"{x / y:.3f}" for x, y in zip(a, b)))
stolen = [f"{i + 1} ({s:.1f} %)" for i, s in enumerate(steal) if s > warn]
if stolen:
    print(f"warning: steal above {warn:g} % in rounds " + ", ".join(stolen) +
          ": the hypervisor ran others on these CPUs, and the ratios of those rounds may be off")
PY
