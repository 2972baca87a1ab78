#!/usr/bin/env bash
# `stand tunnel` versus the Go Hysteria 2 client (tests/hysteria2-client: the
# real github.com/apernet/hysteria/core/v2 client library, the version the
# test server pins) through one test server (tests/hysteria2-server) to one
# sink (`stand backend`): both clients do the same work, N streams each
# downloading the sink's /zero plus a /small probe every 97 ms, for the same
# window. For each stream count, ROUNDS interleaved rounds (the order
# alternates); each client's CPU is user + system of the whole process
# (/usr/bin/time). Prints every round (Mbit/s, client CPU seconds, Mbit per
# client CPU-second, the ratio stand/go) and the medians. Not part of ctest
# or CI.
#
#   tests/perf/tunnel_vs_go.sh [STAND_BINARY]        (default build/bin/stand)
#   STREAMS="1 16" DURATION=10s ROUNDS=3 PIN=auto tests/perf/tunnel_vs_go.sh
#
# PIN=auto (the default, with 2 or more CPUs) runs the clients on the last
# CPU and the server and the sink on the others (taskset); PIN=CPU picks the
# clients' CPU; PIN=off pins nothing. HY2SERVER=BINARY uses a built test
# server (e.g. build/tests/hy2server) instead of building one. Needs Go
# (1.26; the module proxy or the module cache), openssl and time. Ports
# 39000-39003 on 127.0.0.1; the work folder is /tmp/tunnel-vs-go-*.
set -euo pipefail

STAND=${1:-build/bin/stand}
STREAMS=${STREAMS:-1 16}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
PIN=${PIN:-auto}
HY2SERVER=${HY2SERVER:-}
SINK_PORT=39000 SINK_CONTROL=39001 SERVER_PORT=39002 SERVER_CONTROL=39003

die() { echo "tunnel_vs_go: $*" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
[[ -x $STAND ]] || die "no stand binary at $STAND (build first, or give its path)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"
command -v openssl >/dev/null || die "openssl not found: apt-get install openssl"
command -v go >/dev/null || die "go not found: the Go client and the test server are built with Go >= 1.26"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$ROUNDS'"
for s in $STREAMS; do [[ $s =~ ^[1-9][0-9]*$ ]] || die "STREAMS must be positive integers, got '$s'"; done
[[ -z $HY2SERVER || -x $HY2SERVER ]] || die "HY2SERVER=$HY2SERVER is not an executable"
# shellcheck source=tests/perf/lib/hysteria_bench.sh
source "$here/perf/lib/hysteria_bench.sh"
# shellcheck source=tests/perf/lib/steal.sh
source "$here/perf/lib/steal.sh"
require_free_ports $SINK_PORT $SINK_CONTROL $SERVER_PORT $SERVER_CONTROL

work=$(mktemp -d /tmp/tunnel-vs-go-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

pin_bench_cpus
build_hysteria_peers "$work"
start_hysteria_bench "$work" $SINK_PORT $SINK_CONTROL $SERVER_PORT $SERVER_CONTROL
# run_stand N / run_go N: prints "MBIT_S CPU_S BYTES PROBE_P50_MS"
summarize() {  # NAME JSON TIME
  python3 - "$@" <<'PY'
import json, sys
name, out, tfile = sys.argv[1:4]
try:
    r = json.load(open(out))
except ValueError as e:
    sys.exit(f"{name}: no JSON result ({e})")
u, s = map(float, open(tfile).read().split()[-2:])
err = r.get("error") or "; ".join(r.get("warnings", []))
if r["bytes"] <= 0 or r["streams_dropped"] or err:
    sys.exit(f"{name}: {r['bytes']} bytes, {r['streams_dropped']} streams dropped {err}")
probes = r["probes"]
p50 = probes["latency_us"]["p50"] if "latency_us" in probes else probes["p50_us"]
print(f"{r['bytes'] * 8 / 1e6 / r['window_s']:.1f} {u + s:.3f} {r['bytes']} {p50 / 1000:.2f}")
PY
}
run_stand() {
  /usr/bin/time -f "%U %S" -o "$work/time" "${client_cpus[@]}" "${stand_client[@]}" --streams "$1" -d "$DURATION" --json \
    >"$work/stand.json" 2>"$work/stand.err" ||
    die "stand tunnel failed: $(tail -3 "$work/stand.err") $(head -c 600 "$work/stand.json")"
  summarize stand "$work/stand.json" "$work/time" || exit 1
}
run_go() {
  /usr/bin/time -f "%U %S" -o "$work/time" "${client_cpus[@]}" "${go_client[@]}" --streams "$1" -d "$DURATION" \
    >"$work/go.json" 2>"$work/go.err" ||
    die "the Go client failed: $(tail -3 "$work/go.err") $(head -c 600 "$work/go.json")"
  summarize go "$work/go.json" "$work/time" || exit 1
}

warm_up_hysteria_bench "$work"
library=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["library"])' "$work/go.json")
echo "stand tunnel ($STAND) vs the Go client on $library, through tests/hysteria2-server to stand backend's /zero"
echo "window $DURATION, $ROUNDS interleaved rounds per stream count, /small probe every 97 ms in both;" \
  "$(if [[ $PIN == off ]]; then echo "nothing pinned"; else echo "clients on CPU $PIN, server and sink on CPU ${others:-(none)}"; fi);" \
  "CPU = user + system of the client process; probe = the /small probe's p50 through the loaded tunnel;" \
  "steal = CPU time the hypervisor gave elsewhere during the round"
printf '%7s %5s | %12s %6s %10s %8s | %12s %6s %10s %8s | %19s %6s\n' streams round \
  "stand Mbit/s" "CPU s" "Mbit/CPU-s" "probe ms" "go Mbit/s" "CPU s" "Mbit/CPU-s" "probe ms" "Mbit/CPU-s stand/go" \
  "steal%"
rows=()
for n in $STREAMS; do
  for ((i = 1; i <= ROUNDS; i++)); do
    mark=$(steal_mark)
    if ((i % 2)); then a=$(run_stand "$n"); b=$(run_go "$n"); else b=$(run_go "$n"); a=$(run_stand "$n"); fi
    steal=$(steal_pct "$mark")
    read -r a_mbit a_cpu a_bytes a_probe <<<"$a"
    read -r b_mbit b_cpu b_bytes b_probe <<<"$b"
    row=$(python3 -c '
import sys
n, i, am, ac, ab, ap, bm, bc, bb, bp, st = sys.argv[1:]
ae, be = int(ab) * 8 / 1e6 / float(ac), int(bb) * 8 / 1e6 / float(bc)
print(f"{n:>7} {i:>5} | {float(am):12.1f} {float(ac):6.2f} {ae:10.1f} {float(ap):8.2f} |"
      f" {float(bm):12.1f} {float(bc):6.2f} {be:10.1f} {float(bp):8.2f} | {ae / be:19.3f} {float(st):6.1f}")
' "$n" "$i" "$a_mbit" "$a_cpu" "$a_bytes" "$a_probe" "$b_mbit" "$b_cpu" "$b_bytes" "$b_probe" "$steal")
    echo "$row"
    rows+=("$n $a_mbit $a_cpu $a_bytes $b_mbit $b_cpu $b_bytes $a_probe $b_probe $steal")
  done
done
printf '%s\n' "${rows[@]}" | python3 -c '
import statistics, sys
by = {}
steal_warn = float(sys.argv[1])
stolen = []
for line in sys.stdin:
    n, am, ac, ab, bm, bc, bb, ap, bp, st = line.split()
    by.setdefault(int(n), []).append((float(am), float(ac), int(ab) * 8 / 1e6 / float(ac),
                                      float(bm), float(bc), int(bb) * 8 / 1e6 / float(bc), float(ap), float(bp)))
    if float(st) > steal_warn: stolen.append(f"{n} streams: {float(st):.1f} %")
print("medians:")
for n, rs in by.items():
    m = [statistics.median(c) for c in zip(*rs)]
    ratios = [r[2] / r[5] for r in rs]
    print(f"  {n:>4} streams: stand {m[0]:.1f} Mbit/s, {m[2]:.1f} Mbit/CPU-s, probe p50 {m[6]:.2f} ms;"
          f" go {m[3]:.1f} Mbit/s, {m[5]:.1f} Mbit/CPU-s, probe p50 {m[7]:.2f} ms;"
          f" Mbit/s stand/go {m[0] / m[3]:.3f}, Mbit/CPU-s stand/go {m[2] / m[5]:.3f} (median of per-round ratios"
          f" {statistics.median(ratios):.3f})")
if stolen:
    print(f"warning: steal above {steal_warn:g} % in rounds of " + "; ".join(stolen) +
          ": the hypervisor ran others on these CPUs, and the ratios of those rounds may be off")
' "$STEAL_WARN_PCT"
