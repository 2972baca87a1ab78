#!/usr/bin/env bash
# The sysprobe crypto jobs side by side with the openssl CLI on this machine
# (not a ctest: it takes about two minutes and depends on the machine).
#   tests/perf/sysprobe_vs_openssl.sh [BUILD_DIR]     (default: build)
# For each of aes-256-cbc and sha256, the 16384-byte column of
#   openssl speed -seconds 3 [-evp] ALG            (divides by user CPU time)
#   openssl speed -seconds 3 -elapsed [-evp] ALG   (divides by wall-clock time)
# against the probe's mb_s_user_cpu and mb_s, and their ratios (probe/openssl).
set -euo pipefail
build=${1:-build}
stand="$build/bin/stand"
[[ -x $stand ]] || { echo "no $stand; build the stand target first" >&2; exit 2; }
[[ -f $build/plugins/sysprobe.so ]] || { echo "no $build/plugins/sysprobe.so; build stand_plugin_sysprobe" >&2; exit 2; }
command -v openssl >/dev/null || { echo "no openssl CLI on PATH" >&2; exit 2; }
dir=$(mktemp -d /tmp/sysprobe-vs-openssl.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# MB/s of the last (16384-byte) column of the row named $2 in openssl speed output $1.
openssl_mb_s() {
  awk -v row="$2" 'toupper($1) == toupper(row) { v = $NF } END { sub(/k$/, "", v); if (v == "") exit 1; printf "%.1f", v / 1000 }' "$1"
}

cat >"$dir/scenario.json" <<'JSON'
{"schema_version": 1, "name": "sysprobe-vs-openssl", "plugins": ["sysprobe"], "repetitions": 1,
 "phases": [{"name": "crypto", "steps": [
   {"step": "run_probe", "name": "aes", "job": "aes-256-cbc", "params": {"duration_s": 3}},
   {"step": "run_probe", "name": "sha", "job": "sha256", "params": {"duration_s": 3}}]}]}
JSON
"$stand" run "$dir/scenario.json" --run-dir "$dir/run" --plugin-path "$build/plugins" >"$dir/stand.out" 2>&1 \
  || { cat "$dir/stand.out"; exit 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
probe() { python3 -c 'import json,sys
def find(n):
    if isinstance(n, dict):
        m = n.get("metrics")
        if isinstance(m, dict) and sys.argv[2] in m: return m[sys.argv[2]]
        for v in n.values():
            r = find(v)
            if r is not None: return r
    if isinstance(n, list):
        for v in n:
            r = find(v)
            if r is not None: return r
print("%.1f" % find(json.load(open(sys.argv[1]))))' "$dir/run/results.json" "$1"; }

openssl version
printf '%-12s %-10s %12s %12s %8s\n' algorithm divisor openssl probe ratio
for alg in aes-256-cbc sha256; do
  if [[ $alg == aes-256-cbc ]]; then args=(-evp aes-256-cbc); row=AES-256-CBC; key=aes; else args=(sha256); row=sha256; key=sha; fi
  openssl speed -seconds 3 "${args[@]}" >"$dir/cpu.txt" 2>/dev/null
  openssl speed -seconds 3 -elapsed "${args[@]}" >"$dir/wall.txt" 2>/dev/null
  o_cpu=$(openssl_mb_s "$dir/cpu.txt" "$row"); o_wall=$(openssl_mb_s "$dir/wall.txt" "$row")
  p_cpu=$(probe "$key.mb_s_user_cpu"); p_wall=$(probe "$key.mb_s")
  printf '%-12s %-10s %12s %12s %8s\n' "$alg" "user CPU" "$o_cpu" "$p_cpu" "$(ratio "$p_cpu" "$o_cpu")"
  printf '%-12s %-10s %12s %12s %8s\n' "$alg" "wall" "$o_wall" "$p_wall" "$(ratio "$p_wall" "$o_wall")"
done
