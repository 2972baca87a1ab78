#!/usr/bin/env bash
# Where a QUIC client's CPU goes, per packet and per byte, beside a peer
# client, and the floor the kernel and AES-GCM set on this machine. Two
# workloads, ROUNDS interleaved rounds (the order alternates):
#   tunnel (default): `stand tunnel` against the Go Hysteria 2 client
#     (tests/hysteria2-client: apernet/hysteria core/v2 on quic-go), STREAMS
#     streams each downloading `stand backend`'s /zero through the test
#     server (tests/hysteria2-server) for DURATION, as tunnel_vs_go.sh does.
#     Units: us per received QUIC packet and ns per payload byte. stand's
#     packets are its result's udp.datagrams_received; the Go client counts
#     none, so ITS PACKETS ARE ESTIMATED: its bytes divided by stand's payload
#     bytes per datagram in the same round (same server, same work).
#   http3: `stand load --http3` against Debian's gtlsclient (ngtcp2-client)
#     on one Caddy HTTP/3 site, REQUESTS GETs on one connection with 100
#     streams in flight, as http3_vs_gtlsclient.sh does. Units: us per request
#     and per received packet (gtlsclient's packets estimated from stand's
#     packets per request in the same round).
# Each round runs each client twice, pinned to one CPU (the servers on the
# others): under perf record (cpu-clock, the client's process, kernel and
# user), whose samples `perf report --sort dso,sym` puts in groups, and under
# /usr/bin/time without perf, whose user + system CPU per unit is the total
# the groups' shares split. Groups: udp_ip (the kernel's UDP/IP path and its
# copies), syscall (system call entry), sched (scheduler, wake-ups, futexes,
# timers: timerfd, hrtimer), epoll, crypto (GnuTLS, Nettle; Go's crypto/...),
# quic (libngtcp2*; quic-go), framing (libnghttp3; stand::hysteria, Go's
# apernet/hysteria), own (the client's own binary otherwise: stand,
# gtlsclient, the Go client's main and standard library), go_runtime
# (runtime.*), libc (libc, libstdc++: malloc, memcpy), other (clock reads in
# the vDSO, page faults, the rest). Printed: medians of the per-round values,
# both clients side by side, and the ratio.
# The floor, on the same CPUs with the datagram size stand saw, comes from
# tests/perf/quic_floor.cpp (stand_quic_floor, built with
# -DSTAND_BUILD_BENCHMARKS=ON): C++ rather than Python because an
# interpreter's few us per call are as large as what the kernel charges for
# a whole 64 KiB GRO read, and the floor must count the kernel only. It is
# the receiving thread's CPU (user + system) reading GSO bursts with
# GRO+recvmmsg at stand's observed UDP rate (a wake-up a burst) and flat out,
# plain recvmmsg for reference, and GnuTLS's AES-128-GCM decrypt per packet
# (its fastest slice, free of a VM's steal), which every client pays for
# every byte. The last line sets the floor
# (kernel receive + AES-GCM) against each client: for the tunnel the cheaper
# GRO read, for HTTP/3 plain recvmmsg (its packets differ in size, which GRO
# does not coalesce). The floor counts receiving only; the clients also send
# (ACKs, requests), and on loopback the delivery of what a client sends runs
# in the client's system call, so udp_ip holds some of the server's receive
# path too. Groups come from function names (a sample the kernel delivers
# late, as in a VM, lands where interrupts came back on: finish_task_switch
# in sched), so they are approximate to a few percent; the totals are not;
# the perf run includes the start (dynamic linking, certificates). Not part
# of ctest or CI.
#
#   tests/perf/quic_profile.sh [tunnel|http3] [STAND_BINARY]   (default build/bin/stand)
#   STREAMS=16 DURATION=10s ROUNDS=3 tests/perf/quic_profile.sh tunnel
#   REQUESTS=20000 ROUNDS=3 tests/perf/quic_profile.sh http3
#
# PIN=auto (the default): the clients on the last CPU, the servers on the
# others; PIN=CPU picks the clients' CPU. FLOOR=BINARY (default
# stand_quic_floor beside stand), HY2SERVER=BINARY (a built test server, e.g.
# build/tests/hy2server; else it is built with Go), PORT_BASE (39010: the
# sink, its control port, the server, its control port and Caddy take
# PORT_BASE..PORT_BASE+4 on 127.0.0.1), FLOOR_SECONDS (3), KEEP=1 (keep
# the work folder: each client's perf.data of the last round). Needs linux-perf
# and time; Go and openssl (tunnel); caddy and ngtcp2-client (http3); root
# or kernel.perf_event_paranoid <= 1; two or more CPUs. Exit 2 on a usage
# error, 1 when something is missing or fails. Work folder /tmp/quic-profile-*.
set -euo pipefail

die() { echo "quic_profile: $*" >&2; exit 1; }
usage() { echo "quic_profile: $*" >&2; echo "usage: $0 [tunnel|http3] [STAND_BINARY] (--help)" >&2; exit 2; }
case ${1:-} in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  tunnel|http3) WORKLOAD=$1; shift ;;
  ''|*/*) WORKLOAD=tunnel ;;
  *) usage "unknown workload '$1'" ;;
esac
(($# <= 1)) || usage "too many arguments"
STAND=${1:-build/bin/stand}
STREAMS=${STREAMS:-16}
DURATION=${DURATION:-10s}
REQUESTS=${REQUESTS:-20000}
ROUNDS=${ROUNDS:-3}
PIN=${PIN:-auto}
PORT_BASE=${PORT_BASE:-39010}
FLOOR=${FLOOR:-$(dirname "$STAND")/stand_quic_floor}
FLOOR_SECONDS=${FLOOR_SECONDS:-3}
HY2SERVER=${HY2SERVER:-}
PERF=${PERF:-perf}
KEEP=${KEEP:-}
here=$(cd "$(dirname "$0")/.." && pwd)

for v in STREAMS REQUESTS ROUNDS PORT_BASE FLOOR_SECONDS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || usage "$v must be a positive integer, got '${!v}'"
done
[[ $DURATION =~ ^[1-9][0-9]*s$ ]] || usage "DURATION must be whole seconds such as 10s, got '$DURATION'"
[[ -x $STAND ]] || die "no stand binary at $STAND (build first, or give its path)"
[[ -x $FLOOR ]] || die "no floor program at $FLOOR: configure with -DSTAND_BUILD_BENCHMARKS=ON and build" \
  "stand_quic_floor (./stand.sh bench does), or set FLOOR="
command -v "$PERF" >/dev/null || die "perf not found: apt-get install linux-perf"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"
"$PERF" stat -e cpu-clock -o /dev/null -- true 2>/dev/null ||
  die "perf cannot count here: run as root or lower kernel.perf_event_paranoid (now" \
      "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?')) to 1"
if [[ $WORKLOAD == tunnel ]]; then
  command -v go >/dev/null || die "go not found: the Go client and the test server are built with Go >= 1.26"
  command -v openssl >/dev/null || die "openssl not found: apt-get install openssl"
  [[ -z $HY2SERVER || -x $HY2SERVER ]] || die "HY2SERVER=$HY2SERVER is not an executable"
else
  command -v caddy >/dev/null || die "caddy not found: apt-get install caddy"
  command -v gtlsclient >/dev/null || die "gtlsclient not found: apt-get install ngtcp2-client"
fi

# shellcheck source=tests/perf/lib/hysteria_bench.sh
source "$here/perf/lib/hysteria_bench.sh"
# shellcheck source=tests/perf/lib/http3_bench.sh
source "$here/perf/lib/http3_bench.sh"
require_free_ports $((PORT_BASE)) $((PORT_BASE + 1)) $((PORT_BASE + 2)) $((PORT_BASE + 3)) $((PORT_BASE + 4))
pin_bench_cpus
[[ $PIN != off && -n $others ]] || die "needs two or more CPUs and pinning (PIN=auto or a CPU): the client on one, the servers on another"
sender_cpu=${others%%,*}

work=$(mktemp -d /tmp/quic-profile-XXXXXX)
pids=()
caddy_pid=
cleanup() {
  for p in "${pids[@]}" $caddy_pid; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n $KEEP ]]; then echo "quic_profile: kept $work (perf report -i $work/<client>.data --sort dso,sym)" >&2
  else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The group of each sampled function, as "group percent" lines.
groups_of() {  # PERF_DATA CLIENT_BINARY_NAME
  "$PERF" report -i "$1" --stdio --no-children --sort dso,sym -g none 2>/dev/null | awk -v own="$2" '
    /^ +[0-9.]+%/ {
      pct = $1; sub(/%/, "", pct); dso = $2; kind = $3; sym = $4
      for (i = 5; i <= NF; i++) sym = sym " " $i
      if (kind == "[k]") {
        if (sym ~ /^ep_|epoll|^(sock|udp|datagram)_poll$/) g = "epoll"
        else if (sym ~ /timerfd|hrtimer|timer|futex|nanosleep|schedule|wake|enqueue|dequeue|pick_next|update_curr|update_load|select_task|ttwu|switch|sched|idle|tick|rcu|irq|psi_|spin_|cpuacct|account|ktime|clock|write_msr/) g = "sched"
        else if (sym ~ /udp|(^|_)ip_|ipv4|inet|skb|(^|_)sk_|sock|net|(^|_)dev_|loopback|(^|_)nf_|conntrack|copy|csum|gro|gso|page_frag|slab|kmalloc|kfree|kmem|memcg|refill_stock|backlog|bh_enable|iter|msg|memcpy|memmove|rep_movs|put_user|addr_to_user|check_.*object|virt_addr_valid|cmsg|dst_|fib|siphash|eth_|napi|raw_local/) g = "udp_ip"
        else if (sym ~ /syscall|sys_call|^entry_|exit_to_user|^__x64_sys|^__do_sys|fdget|fget|fput|^vfs_|rw_verify|security_|apparmor|thunk|import_ubuf/) g = "syscall"
        else g = "other"
      }
      else if (dso ~ /^(libgnutls|libnettle|libhogweed|libgmp|libtasn1|libp11-kit)/ || sym ~ /^(crypto\/|vendor\/golang.org\/x\/crypto|golang.org\/x\/crypto|gnutls_|nettle_)/) g = "crypto"
      else if (dso ~ /^libngtcp2/ || sym ~ /^(github.com\/apernet\/quic-go|github.com\/quic-go|ngtcp2_)/) g = "quic"
      else if (dso ~ /^libnghttp3/ || sym ~ /^(github.com\/apernet\/hysteria|nghttp3_)|stand::hysteria::/) g = "framing"
      else if (dso == "hy2client" && sym ~ /^(runtime[.\/]|internal\/runtime|internal\/bytealg|gcWriteBarrier|aeshash|memeqbody|cmpbody|indexbyte)/) g = "go_runtime"
      else if (dso ~ /^(libc[.-]|libstdc\+\+|libgcc|ld-linux|libm[.-])/) g = "libc"
      else if (dso == own) g = "own"
      else if (dso == "hy2client") g = "own"
      else g = "other"
      share[g] += pct
    }
    END { for (g in share) printf "%s %.3f\n", g, share[g] }'
}

# One client's round: a perf run (shares) and a timed run (CPU and units).
measure() {  # ROUND NAME DSO CMD...
  local round=$1 name=$2 dso=$3
  shift 3
  "$PERF" record -q -e cpu-clock -F 2000 -o "$work/$name.data" -- "${client_cpus[@]}" "$@" \
    >"$work/$name.profiled" 2>&1 || die "$name under perf failed: $(tail -3 "$work/$name.profiled")"
  /usr/bin/time -f '%U %S' -o "$work/$name.time" "${client_cpus[@]}" "$@" >"$work/$name.out" 2>"$work/$name.err" ||
    die "$name failed: $(tail -3 "$work/$name.err") $(head -c 600 "$work/$name.out")"
  python3 - "$round" "$name" "$work/$name.out" "$work/$name.time" "$REQUESTS" >>"$work/records" <<'PY' ||
import json, sys
round_, name, out, tfile, requests = sys.argv[1:6]
u, s = map(float, open(tfile).read().split()[-2:])
rec = {"round": int(round_), "client": name, "cpu_s": u + s}
if name in ("stand", "go"):
    r = json.load(open(out))
    err = r.get("error") or "; ".join(r.get("warnings", []))
    if r["bytes"] <= 0 or r["streams_dropped"] or err:
        sys.exit(f"{name}: {r['bytes']} bytes, {r['streams_dropped']} streams dropped {err}")
    rec.update(payload=r["bytes"], mbit=r["bytes"] * 8 / 1e6 / r["window_s"])
    if name == "stand":
        udp = r["udp"]
        rec.update(packets=udp["datagrams_received"], udp_bytes=udp["bytes_received"],
                   udp_mbit=udp["bytes_received"] * 8 / 1e6 / r["window_s"])
elif name == "stand_h3":
    r = json.load(open(out))
    q = r["requests"]
    if q["completed"] != int(requests) or q["errors"]:
        sys.exit(f"stand: {q['completed']} of {requests} completed, {q['errors']} errors")
    rec.update(requests=q["completed"], packets=r["udp"]["datagrams_received"], udp_bytes=r["udp"]["bytes_received"])
else:
    rec.update(requests=int(requests))
print(json.dumps(rec))
PY
    die "the $name run's result is not usable (above)"
  groups_of "$work/$name.data" "$dso" | sed "s/^/$round $name /" >>"$work/shares"
}

# The arithmetic: rounds, the medians table, the floor's inputs and lines.
cat >"$work/report.py" <<'PY'
import json, statistics, sys
mode, workload, records = sys.argv[1:4]
recs = [json.loads(line) for line in open(records)]
tunnel = workload == "tunnel"
peer = "go" if tunnel else "gtls"
me = "stand" if tunnel else "stand_h3"
label = {"stand": "stand", "stand_h3": "stand", "go": "go", "gtls": "gtls"}
rounds = sorted({r["round"] for r in recs})

def per_round(n):  # {client: record with the units filled in, peer's packets estimated}
    rs = {r["client"]: dict(r) for r in recs if r["round"] == n}
    s, p = rs[me], rs[peer]
    if tunnel:
        p["packets"] = p["payload"] * s["packets"] / s["payload"]  # stand's payload bytes per datagram
    else:
        p["packets"] = p["requests"] * s["packets"] / s["requests"]  # stand's datagrams per request
    for r in rs.values():
        r["us_pkt"] = r["cpu_s"] * 1e6 / r["packets"]
        r["second"] = r["cpu_s"] * 1e9 / r["payload"] if tunnel else r["cpu_s"] * 1e6 / r["requests"]
    return rs

med = statistics.median
if mode == "round":
    n = int(sys.argv[4]); rs = per_round(n); s, p = rs[me], rs[peer]
    if tunnel:
        print(f"round {n}: stand {s['mbit']:.0f} Mbit/s, {s['us_pkt']:.3f} us/packet, {s['second']:.3f} ns/byte"
              f" ({s['packets']} packets, {s['payload'] / s['packets']:.0f} payload bytes each);"
              f" go {p['mbit']:.0f} Mbit/s, {p['us_pkt']:.3f} us/packet (est.), {p['second']:.3f} ns/byte")
    else:
        print(f"round {n}: stand {s['second']:.2f} us/request, {s['us_pkt']:.3f} us/packet"
              f" ({s['packets'] / s['requests']:.2f} packets/request); gtlsclient {p['second']:.2f} us/request,"
              f" {p['us_pkt']:.3f} us/packet (est.)")
elif mode == "table":
    shares = {}
    for line in open(sys.argv[4]):
        n, client, group, pct = line.split()
        shares.setdefault((int(n), client), {})[group] = float(pct)
    groups = ["udp_ip", "syscall", "sched", "epoll", "crypto", "quic", "framing", "own", "go_runtime", "libc", "other"]
    val = {}  # (client, group, unit) -> per-round values
    for n in rounds:
        for c, r in per_round(n).items():
            sh = shares.get((n, c), {})
            for g in groups + ["total"]:
                f = 1.0 if g == "total" else sh.get(g, 0.0) / 100
                val.setdefault((c, g, "pkt"), []).append(r["us_pkt"] * f)
                val.setdefault((c, g, "2nd"), []).append(r["second"] * f)
                val.setdefault((c, g, "pct"), []).append(f * 100)
    a, b = label[me], label[peer]
    second = "ns/B" if tunnel else "us/req"
    head = [f"{a} us/pkt", f"{b} us/pkt*", f"{a} {second}", f"{b} {second}", f"{a} %", f"{b} %", f"{a}/{b}"]
    print(f"\n{'medians, ' + str(len(rounds)) + ' rounds':<20}" + "".join(f"{h:>13}" for h in head))
    for g in groups + ["total"]:
        m = {(c, u): med(val[(c, g, u)]) for c in (me, peer) for u in ("pkt", "2nd", "pct")}
        ratio = f"{m[(me, '2nd')] / m[(peer, '2nd')]:.2f}" if m[(peer, "2nd")] >= 0.0005 else "-"
        cells = [f"{m[(me, 'pkt')]:.3f}", f"{m[(peer, 'pkt')]:.3f}", f"{m[(me, '2nd')]:.3f}", f"{m[(peer, '2nd')]:.3f}",
                 f"{m[(me, 'pct')]:.1f}", f"{m[(peer, 'pct')]:.1f}", ratio]
        print(f"{g:<20}" + "".join(f"{x:>13}" for x in cells))
    if tunnel:
        print("* the Go client counts no packets: its bytes / stand's payload bytes per datagram in the same round")
    else:
        print("* gtlsclient counts no packets: its requests x stand's datagrams per request in the same round")
elif mode == "floor-input":  # the datagram size and the UDP rate stand saw
    s = [per_round(n)[me] for n in rounds]
    size = med([r["udp_bytes"] / r["packets"] for r in s])
    rate = med([r["udp_mbit"] for r in s]) if tunnel else 0
    print(f"{max(64, round(size))} {rate:.0f}")
elif mode == "floor":
    f = {}
    for line in open(sys.argv[4]):
        name, js = line.split(" ", 1)
        f[name] = json.loads(js)
    rs = [per_round(n) for n in rounds]
    print(f"\nfloor on this machine (stand_quic_floor, datagrams of {f['aes']['packet']} bytes, the receiver"
          f" pinned like the clients, the sender on the servers' CPU):")
    for k, what in (("rate", "gro+recvmmsg at stand's UDP rate"), ("gro", "gro+recvmmsg flat out"),
                    ("mmsg", "recvmmsg (no GRO) flat out")):
        if k in f:
            u = f[k]
            print(f"  kernel receive, {what:<34} {u['us_per_datagram']:.3f} us/datagram, {u['ns_per_byte']:.3f} ns/byte"
                  f" ({u['mbit_s']:.0f} Mbit/s, {u['datagrams'] / u['calls']:.1f} datagrams a call)")
    aes = f["aes"]
    print(f"  AES-128-GCM decrypt ({aes['library']}):{'':<14} {aes['ns_per_packet'] / 1000:.3f} us/packet,"
          f" {aes['ns_per_byte']:.3f} ns/byte (the fastest slice; mean {aes['ns_per_packet_mean'] / 1000:.3f} us/packet)")
    # The tunnel's floor is the cheaper GRO read (flat out: fewest wake-ups);
    # HTTP/3's packets differ in size, which GRO does not coalesce.
    if tunnel:
        name = min((k for k in ("rate", "gro") if k in f), key=lambda k: f[k]["us_per_datagram"])
    else:
        name = "mmsg"
    kernel = f[name]
    how = {"rate": "gro+recvmmsg at stand's rate", "gro": "gro+recvmmsg flat out", "mmsg": "recvmmsg"}[name]
    floor_pkt = kernel["us_per_datagram"] + aes["ns_per_packet"] / 1000
    mine = med([r[me]["us_pkt"] for r in rs]); theirs = med([r[peer]["us_pkt"] for r in rs])
    if tunnel:
        payload = med([r[me]["payload"] / r[me]["packets"] for r in rs])
        x = floor_pkt * 1000 / payload
        y = med([r[me]["second"] for r in rs]); z = med([r[peer]["second"] for r in rs])
        print(f"floor (kernel receive, {how}, + AES-GCM) {x:.3f} ns/byte; stand {y:.3f} ns/byte ({y / x:.1f}x);"
              f" Go {z:.3f} ns/byte ({z / x:.1f}x)")
    else:
        print(f"floor (kernel receive, {how}, + AES-GCM) {floor_pkt:.3f} us/packet; stand {mine:.3f} us/packet"
              f" ({mine / floor_pkt:.1f}x); gtlsclient {theirs:.3f} us/packet (est., {theirs / floor_pkt:.1f}x)")
PY

if [[ $WORKLOAD == tunnel ]]; then
  build_hysteria_peers "$work"
  start_hysteria_bench "$work" "$PORT_BASE" $((PORT_BASE + 1)) $((PORT_BASE + 2)) $((PORT_BASE + 3))
  warm_up_hysteria_bench "$work"
  clients=(stand go)
  library=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["library"])' "$work/go.json")
  echo "quic_profile tunnel: stand tunnel ($STAND) vs the Go client on $library, $STREAMS streams of /zero" \
       "through tests/hysteria2-server, $DURATION, $ROUNDS interleaved rounds"
else
  start_http3_bench "$work" $((PORT_BASE + 4)) "${server_cpus[@]}" || die "Caddy did not start (above)"
  http3_clients "$REQUESTS"
  clients=(stand_h3 gtls)
  echo "quic_profile http3: stand load --http3 ($STAND) vs gtlsclient ($(dpkg-query -W -f '${Version}' ngtcp2-client 2>/dev/null || echo '?'))," \
       "$REQUESTS requests on one connection, 100 streams, Caddy $(caddy version | cut -d' ' -f1), $ROUNDS interleaved rounds"
fi
echo "clients on CPU $PIN, servers on CPU $others; kernel $(uname -r); CPU = user + system of the client process"

run_client() {  # ROUND NAME
  case $2 in
    stand) measure "$1" stand "$(basename "$STAND")" "${stand_client[@]}" --streams "$STREAMS" -d "$DURATION" --json ;;
    go) measure "$1" go hy2client "${go_client[@]}" --streams "$STREAMS" -d "$DURATION" ;;
    stand_h3) measure "$1" stand_h3 "$(basename "$STAND")" "${stand_h3[@]}" ;;
    gtls) measure "$1" gtls gtlsclient "${gtls_h3[@]}" ;;
  esac
}
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then order=("${clients[@]}"); else order=("${clients[1]}" "${clients[0]}"); fi
  for c in "${order[@]}"; do run_client "$round" "$c"; done
  python3 "$work/report.py" round "$WORKLOAD" "$work/records" "$round"
done
python3 "$work/report.py" table "$WORKLOAD" "$work/records" "$work/shares"

read -r segment rate < <(python3 "$work/report.py" floor-input "$WORKLOAD" "$work/records")
floor() {  # NAME ARGS...: one floor measurement into $work/floor
  local name=$1
  shift
  local out
  out=$("$FLOOR" "$@" --seconds "$FLOOR_SECONDS") || die "$FLOOR $* --seconds $FLOOR_SECONDS failed"
  echo "$name $out" >>"$work/floor"
}
udp_floor=(udp --segment "$segment" --receiver-cpu "$PIN" --sender-cpu "$sender_cpu")
if ((rate > 0)); then floor rate "${udp_floor[@]}" --rate-mbit "$rate"; fi
floor gro "${udp_floor[@]}"
floor mmsg "${udp_floor[@]}" --no-gro
floor aes aes --size "$segment"
python3 "$work/report.py" floor "$WORKLOAD" "$work/records" "$work/floor"
