#!/usr/bin/env bash
# scenarios/reverse-proxy.json, short (2 s loads, one round), through
# `stand run` with the real nginx and whichever of haproxy and caddy are
# installed, in front of `stand backend`: every repetition is ok; with the
# pool off each request opened a backend connection and with it on almost
# none did; the TLS steps counted handshakes with server and client CPU;
# the websocket echo and idle connections ran; the summary has the defaults
# table (every proxy's pool default and key type), the TLS sessions and the
# CPU placement.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
command -v nginx >/dev/null || { echo "nginx is not installed (./stand.sh installs it)"; exit 77; }
proxies=(--plugin nginx)
command -v haproxy >/dev/null && proxies+=(--plugin haproxy)
command -v caddy >/dev/null && proxies+=(--plugin caddy)
dir=$(mktemp -d /tmp/stand-reverse-proxy.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${proxies[@]}" \
  --param duration_s=2 --param repetitions=1 --param idle_connections=200 --param idle_hold_s=2
sed -n '/^## Upstream pool/,/^## Repetitions/p' "$dir/run/summary.md"
python3 - "$dir/run/results.json" "$dir/run/summary.md" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
summary = open(sys.argv[2]).read()
bad = []
for rep in results["reps"]:
    p = rep["plugin"]
    if rep["status"] != "ok":
        bad.append(f"{p}: {rep['status']}: {rep.get('reason')}")
        continue
    m = rep["metrics"]
    def need(key, ok, what):
        v = m.get(key)
        if not isinstance(v, (int, float)) or not ok(v):
            bad.append(f"{p}: {key} = {v!r}, expected {what}")
    need("pool_off.backend_conns_per_req", lambda v: v >= 0.95, ">= 0.95 (a backend connection per request)")
    need("pool_on.backend_conns_per_req", lambda v: v <= 0.05, "<= 0.05 (connections reused)")
    for step in ("defaults", "pool_on", "pool_off"):
        need(f"{step}.rps", lambda v: v > 0, "> 0")
        need(f"{step}.box_cpu_us_per_req", lambda v: v > 0, "> 0")
        need(f"{step}.error_pct", lambda v: v == 0, "0")
    for step in ("tls_p256", "tls_rsa4096"):
        need(f"{step}.handshakes", lambda v: v > 0, "> 0")
        need(f"{step}.server_us_per_handshake", lambda v: v > 0, "> 0")
        need(f"{step}.client_us_per_handshake", lambda v: v > 0, "> 0")
    need("ws_echo.ws_connected", lambda v: v == 200, "200 upgrades")
    need("ws_echo.ws_dropped", lambda v: v == 0, "0")
    need("ws_echo.backend_ws_sessions", lambda v: v == 200, "200 sessions at the backend")
    need("idle.idle_opened", lambda v: v == 200, "200")
    d = rep.get("proxy_defaults", {}).get("cfg_defaults", {})
    for key in ("upstream_keepalive", "upstream_keepalive_source", "upstream_pool", "version"):
        if key not in d:
            bad.append(f"{p}: proxy_defaults.cfg_defaults has no {key}: {d}")
    if rep.get("proxy_defaults", {}).get("cfg_rsa4096", {}).get("tls_key_type") != "RSA 4096":
        bad.append(f"{p}: cfg_rsa4096 does not report tls_key_type RSA 4096")
    if "placement" not in rep:
        bad.append(f"{p}: no placement recorded")
for section in ("## Defaults of the compared systems", "| upstream_keepalive_source |", "| tls_key_type |",
                "## TLS sessions", "## CPU placement"):
    if section not in summary:
        bad.append(f"summary.md has no {section!r}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print(f"{len(results['reps'])} proxies: pool on/off, TLS, websocket, idle and the defaults table as expected")
PY
