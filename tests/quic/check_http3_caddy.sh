#!/usr/bin/env bash
# `stand load --http3` against Caddy's HTTP/3 (Debian's caddy serves h3 on
# the UDP port of its HTTPS site): responses over h3 with the certificate
# verified, a new connection per request with --keepalive off, several
# streams per connection, and clear errors for a wrong port and an
# untrusted certificate.
set -euo pipefail
stand=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v caddy >/dev/null || { echo "caddy is not installed (./stand.sh installs it)"; exit 77; }
dir=$(mktemp -d /tmp/stand-http3.XXXXXX)
caddy_pid=
cleanup() { [[ -n $caddy_pid ]] && kill "$caddy_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
port=$("$here/free_port.py")
source "$here/caddy_h3.sh"
start_caddy_h3 "$dir" "$port" "hello over h3"

url=https://localhost:$port/
"$stand" load --http3 --cacert "$dir/cert.pem" -t 1 -c 2 --streams 4 -d 2s --json "$url" >"$dir/kept.json"
# 8 clients: handshakes are open at the window's end, which is no error (a client that got none is)
"$stand" load --http3 --cacert "$dir/cert.pem" -t 1 -c 8 --keepalive off -d 1s --json "$url" >"$dir/fresh.json"
"$stand" load --http3 --cacert "$dir/cert.pem" -t 1 -c 1 -d 1s "$url" | tee "$dir/text.txt"
set +e
"$stand" load --http3 -t 1 -c 1 -d 1s "$url" >"$dir/untrusted.txt" 2>&1
untrusted_rc=$?
other=$("$here/free_port.py")
"$stand" load --http3 --insecure -t 1 -c 1 -d 1s "https://localhost:$other/" >"$dir/refused.txt" 2>&1
refused_rc=$?
"$stand" load --http3 --insecure -t 1 -c 1 -d 1s "http://localhost:$port/" >"$dir/plain.txt" 2>&1
plain_rc=$?
set -e
python3 - "$dir" "$untrusted_rc" "$refused_rc" "$plain_rc" <<'PY'
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
untrusted_rc, refused_rc, plain_rc = map(int, sys.argv[2:5])
bad = []
kept = json.loads((d / "kept.json").read_text())
fresh = json.loads((d / "fresh.json").read_text())
for name, r in (("kept", kept), ("fresh", fresh)):
    if r["protocol"] != "h3": bad.append(f"{name}: protocol {r['protocol']}")
    q = r["requests"]
    if q["completed"] <= 0 or q["errors"] != 0:
        bad.append(f"{name}: completed {q['completed']}, errors {q['errors']}: {r.get('error_reasons')}")
    if set(r["status_counts"]) != {"200"}: bad.append(f"{name}: statuses {r['status_counts']}")
    if r["body_bytes"]["min"] != len("hello over h3"): bad.append(f"{name}: body {r['body_bytes']}")
if kept["streams_per_connection"] != 4: bad.append(f"kept: streams {kept['streams_per_connection']}")
if kept["connections_opened"] != 2: bad.append(f"kept: {kept['connections_opened']} connections, expected 2")
done = fresh["requests"]["completed"]
if fresh["connections_opened"] < done:
    bad.append(f"fresh: {fresh['connections_opened']} connections for {done} requests")
if fresh["tls_handshakes"]["total"] < done: bad.append("fresh: fewer handshakes than requests")
if fresh["connect_us"]["count"] < done: bad.append(f"fresh: {fresh['connect_us']['count']} handshake times")
text = (d / "text.txt").read_text()
if "HTTP/3 over QUIC" not in text or "QUIC handshakes" not in text: bad.append("text report lacks the HTTP/3 lines")
u = (d / "untrusted.txt").read_text()
if untrusted_rc != 1 or "certificate" not in u or "NOT trusted" not in u:
    bad.append(f"untrusted: rc {untrusted_rc}: {u[-300:]}")
r = (d / "refused.txt").read_text()
if refused_rc != 1 or "nobody listens on UDP" not in r: bad.append(f"refused: rc {refused_rc}: {r[-300:]}")
p = (d / "plain.txt").read_text()
if plain_rc != 2 or "HTTP/3 needs an https:// URL" not in p: bad.append(f"plain: rc {plain_rc}: {p[-300:]}")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"ok: kept-alive {kept['requests']['completed']} responses ({kept['throughput']['requests_per_s']:.0f}/s), "
      f"{done} on fresh connections, client CPU {kept['cpu']['us_per_request']:.1f} us/request")
PY
