#!/usr/bin/env bash
# scenarios/sysprobe-quick.json through `stand run`: every job's contract
# metrics are present and positive in results.json; the 7z row too when a 7z
# is on PATH, else the run log carries the probe's note and there is no row.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-sysprobe-quick.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" >"$dir/out" 2>&1 || { cat "$dir/out"; exit 1; }
cat "$dir/out"
cat "$dir/run/summary.md"
have_7z=0
for b in 7z 7za 7zz; do command -v "$b" >/dev/null && have_7z=1 && break; done
python3 - "$dir/run/results.json" "$have_7z" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
have_7z = sys.argv[2] == "1"
expected = {
    "cpu_1t": ["events_s", "threads", "max_prime", "seconds"],
    "cpu_all": ["events_s", "threads", "max_prime", "seconds"],
    "mem_read": ["mib_s", "threads", "block_size_kib", "seconds"],
    "mem_write": ["mib_s", "threads", "block_size_kib", "seconds"],
    "aes_256_cbc": ["mb_s", "block_bytes", "seconds"],
    "sha256": ["mb_s", "block_bytes", "seconds"],
}
if have_7z:
    expected["sevenzip"] = ["mips"]

def metrics_of(node):
    """The metrics object of the first repetition, wherever results.json keeps it."""
    if isinstance(node, dict):
        m = node.get("metrics")
        if isinstance(m, dict) and any(k.startswith("cpu_1t.") for k in m):
            return m
        for v in node.values():
            found = metrics_of(v)
            if found is not None:
                return found
    elif isinstance(node, list):
        for v in node:
            found = metrics_of(v)
            if found is not None:
                return found
    return None

metrics = metrics_of(results)
if metrics is None:
    sys.exit("results.json: no repetition with cpu_1t.* metrics")
bad = []
for step, names in expected.items():
    for name in names:
        key = f"{step}.{name}"
        value = metrics.get(key)
        if not isinstance(value, (int, float)) or value <= 0:
            bad.append(f"{key} = {value!r}")
if not have_7z and any(k.startswith("sevenzip.") for k in metrics):
    bad.append("7z is not on PATH, yet sevenzip.* metrics are present")
if bad:
    sys.exit("results.json: missing or not positive: " + ", ".join(bad))
print(f"ok: {sum(len(v) for v in expected.values())} metrics present and positive")
PY
if [[ $have_7z -eq 0 ]]; then
  grep -q '7z not found on PATH (apt-get install p7zip-full); the archiver row is empty' "$dir/out" \
    || { echo "7z is missing but the run log has no note saying so"; exit 1; }
  echo "ok: no 7z here, the note is in the run log"
fi
