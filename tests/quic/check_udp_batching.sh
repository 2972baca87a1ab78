#!/usr/bin/env bash
# Same work, same numbers: the QUIC client with batched UDP (auto: GSO and
# GRO), with the fallback forced (mmsg: sendmmsg and recvmmsg only) and
# unbatched (off: a system call per datagram), interleaved on one real peer.
#   hysteria: the Hysteria 2 test server sends with Brutal at the rate the
#     client declares (--rx-mbit 150), so every mode must see that rate, and
#     the /small probe through the loaded tunnel must not be slower batched.
#   http3: Caddy's HTTP/3 serving a 64 KiB file (a response spans ~50
#     packets, which GRO coalesces): every response whole, and requests/s
#     and latency alike within noise.
# Each run must name the paths its mode asked for in the result's "udp", and
# move no fewer payload bytes than the datagrams carried allow.
#
#   check_udp_batching.sh hysteria STAND HY2SERVER
#   check_udp_batching.sh http3 STAND
set -euo pipefail
kind=$1 stand=$2 server=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${ROUNDS:-2}
dir=$(mktemp -d /tmp/stand-udp-batching.XXXXXX)
pids=()
caddy_pid=
cleanup() {
  for p in "${pids[@]}" $caddy_pid; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT

# Interleaved: round 1 auto mmsg off, round 2 off mmsg auto, ...
order() { if (($1 % 2)); then echo auto mmsg off; else echo off mmsg auto; fi; }

case $kind in
hysteria)
  [[ -x $server ]] || { echo "the Hysteria 2 test server was not built ($server): is Go installed?"; exit 77; }
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
    -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
  "$stand" backend --listen 127.0.0.1:0 >"$dir/backend.json" 2>"$dir/backend.err" &
  pids+=($!)
  for _ in $(seq 50); do [[ -s $dir/backend.json ]] && break; sleep 0.1; done
  sink=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["listen"])' "$dir/backend.json")
  echo alice >"$dir/users"
  "$server" --listen 127.0.0.1:0 --control 127.0.0.1:0 --cert "$dir/cert.pem" --key "$dir/key.pem" \
    --users "$dir/users" --max-tx-mbit 1000 >"$dir/server.out" 2>"$dir/server.err" &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^ready' "$dir/server.out" 2>/dev/null && break; sleep 0.1; done
  grep -q '^ready' "$dir/server.out" || { echo "the test server did not start"; cat "$dir/server.err"; exit 1; }
  udp=$(sed -n 's/^ready udp=\([^ ]*\) .*/\1/p' "$dir/server.out")
  for ((r = 1; r <= ROUNDS; r++)); do
    for mode in $(order "$r"); do
      "$stand" tunnel "hysteria2://alice@$udp/?insecure=1" --sink "$sink" --streams 2 -d 2s --rx-mbit 150 \
        --udp-batching "$mode" --json >"$dir/$mode.$r.json"
    done
  done
  ;;
http3)
  command -v caddy >/dev/null || { echo "caddy is not installed (./stand.sh installs it)"; exit 77; }
  port=$("$here/free_port.py")
  source "$here/caddy_h3.sh"
  start_caddy_h3 "$dir" "$port" "hello"
  head -c 65536 /dev/urandom >"$dir/files/64k.bin"
  for ((r = 1; r <= ROUNDS; r++)); do
    for mode in $(order "$r"); do
      "$stand" load --http3 --cacert "$dir/cert.pem" -t 1 -c 2 --streams 4 -d 1s --udp-batching "$mode" --json \
        "https://localhost:$port/files/64k.bin" >"$dir/$mode.$r.json"
    done
  done
  ;;
*) echo "usage: $0 hysteria STAND HY2SERVER | http3 STAND" >&2; exit 2 ;;
esac

python3 - "$kind" "$dir" "$ROUNDS" <<'PY'
import json, statistics, sys, pathlib
kind, d, rounds = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3])
paths = {"auto": ("gso+sendmmsg", "gro+recvmmsg"), "mmsg": ("sendmmsg", "recvmmsg"), "off": ("sendmsg", "recvmsg")}
bad, rate, latency = [], {}, {}
for mode in paths:
    for r in range(1, rounds + 1):
        name = f"{mode}.{r}"
        res = json.loads((d / f"{name}.json").read_text())
        u = res["udp"]
        send, receive = paths[mode]
        if u["batching"] != mode: bad.append(f"{name}: udp.batching {u['batching']}")
        refused = " ".join(u["fallbacks"])
        # A kernel without an offload names the fallback instead (auto only).
        if u["send"] != send and not (mode == "auto" and "gso:" in refused and u["send"] == "sendmmsg"):
            bad.append(f"{name}: send path {u['send']}, expected {send} ({refused})")
        if u["receive"] != receive and not (mode == "auto" and "gro:" in refused and u["receive"] == "recvmmsg"):
            bad.append(f"{name}: receive path {u['receive']}, expected {receive} ({refused})")
        if u["datagrams_received"] <= 0 or u["datagrams_sent"] <= 0: bad.append(f"{name}: no datagrams {u}")
        if kind == "hysteria":
            payload = res["bytes"]
            if res["streams_dropped"] or res["probes"]["failed"] or res["warnings"]:
                bad.append(f"{name}: dropped {res['streams_dropped']}, probes failed {res['probes']['failed']}, "
                           f"{res['warnings']}")
            rate.setdefault(mode, []).append(res["mbit_mean"])
            latency.setdefault(mode, []).append(res["probes"]["latency_us"]["p50"])
        else:
            q = res["requests"]
            if q["completed"] <= 0 or q["errors"] or set(res["status_counts"]) != {"200"}:
                bad.append(f"{name}: completed {q['completed']}, errors {q['errors']}, statuses {res['status_counts']}")
            if res["body_bytes"]["min"] != 65536 or res["body_bytes"]["max"] != 65536:
                bad.append(f"{name}: bodies {res['body_bytes']}, expected 65536 each")
            payload = res["body_bytes"]["total"]
            rate.setdefault(mode, []).append(res["throughput"]["requests_per_s"])
            latency.setdefault(mode, []).append(res["latency_us"]["all"]["p50"])
        # QUIC's headers, tags and ACKs cost a few percent: the payload lies
        # between 85 % and 100 % of what the datagrams carried.
        got = u["bytes_received"]
        if not (0.85 * got <= payload <= got):
            bad.append(f"{name}: {payload} payload bytes from {got} bytes of datagrams")
med = {m: statistics.median(v) for m, v in rate.items()}
lat = {m: statistics.median(v) for m, v in latency.items()}
for mode in ("auto", "mmsg"):
    ratio = med[mode] / med["off"]
    if kind == "hysteria":
        # Brutal sends at the declared 150 Mbit/s: every mode sees it.
        if not 0.9 <= ratio <= 1.1: bad.append(f"{mode}: {med[mode]:.1f} Mbit/s against off's {med['off']:.1f}")
        if not 120 <= med[mode] <= 160: bad.append(f"{mode}: {med[mode]:.1f} Mbit/s, the server sends 150")
    elif not 0.5 <= ratio <= 3.0:
        bad.append(f"{mode}: {med[mode]:.0f} requests/s against off's {med['off']:.0f}")
    # The probe (or request) through the same load is no slower batched.
    if lat[mode] > 1.5 * lat["off"] + 1000:
        bad.append(f"{mode}: p50 {lat[mode]} us against off's {lat['off']} us")
unit = "Mbit/s" if kind == "hysteria" else "requests/s"
summary = ", ".join(f"{m} {med[m]:.1f} {unit} p50 {lat[m]} us" for m in paths)
if bad:
    print(f"FAIL ({summary}):\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"ok: medians of {rounds} interleaved rounds: {summary}")
PY
