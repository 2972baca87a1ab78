#!/usr/bin/env bash
# scenarios/reverse-proxy.json, short (2 s loads, one round, 20 client
# connections: under Caddy's 32 idle backend connections per host, so every
# proxy's pool holds them all), through `stand run` with the real nginx,
# whichever of haproxy and caddy are installed, and Envoy and Traefik when
# the test build fetched them (tests/real-proxies/proxies.list, into
# REAL_DIR), in front of `stand backend`: every repetition is ok; with the
# pool off each request opened a backend connection and with it on almost
# none did; the TLS steps counted handshakes with server and client CPU;
# the websocket echo and idle connections ran; the summary has the defaults
# table (every proxy's pool default and key type), seed 002's finding as a
# computed ratio over every proxy, the TLS sessions and the CPU placement.
#   check_reverse_proxy.sh STAND SCENARIO PLUGIN_DIR PROXIES_LIST REAL_DIR
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 list=$4 real=$5
command -v nginx >/dev/null || { echo "nginx is not installed (./stand.sh installs it)"; exit 77; }
proxies=(--plugin nginx)
command -v haproxy >/dev/null && proxies+=(--plugin haproxy)
command -v caddy >/dev/null && proxies+=(--plugin caddy)
while IFS='|' read -r plugin package version inner name; do
  [[ -z $plugin || $plugin == '#'* ]] && continue
  binary=$real/$plugin-$version/$name
  if [[ -x $binary && ! -f $real/$plugin-$version/missing.txt ]]; then
    proxies+=(--plugin "$plugin={\"binary\": \"$binary\"}")
  else
    echo "left out $plugin $version: $(cat "$real/$plugin-$version/missing.txt" 2>/dev/null || echo "no $binary")"
  fi
done < "$list"
dir=$(mktemp -d /tmp/stand-reverse-proxy.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${proxies[@]}" \
  --param duration_s=2 --param repetitions=1 --param connections=20 --param idle_connections=200 --param idle_hold_s=2 \
  --param cap_from_rate=2000 --param cap_to_rate=16000 --param cap_dwell_s=1 --param cap_resolution_pct=50
sed -n '/^## Measurement 1/,/^## Repetitions/p' "$dir/run/summary.md"
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
spread = results.get("spread_ratios", [])
if len(spread) != 1 or not spread[0].get("computed"):
    bad.append(f"spread_ratios not computed: {spread}")
elif len(spread[0]["systems"]) != len(results["reps"]) or not spread[0]["across_spread"] >= 1:
    bad.append(f"spread_ratios over {len(spread[0]['systems'])} systems for {len(results['reps'])} proxies: {spread[0]}")
for section in ("## Seed 002's finding", "- Between the systems", "- Within each system",
                "## Defaults of the compared systems", "| upstream_keepalive_source |", "| tls_key_type |",
                "## TLS sessions", "## CPU placement"):
    if section not in summary:
        bad.append(f"summary.md has no {section!r}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print(f"{len(results['reps'])} proxies: pool on/off, TLS, websocket, idle and the defaults table as expected")
PY
