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

reps = results.get("reps", [])
if len(reps) != 1 or reps[0].get("status") != "ok":
    sys.exit(f"results.json: expected one repetition with status ok, got {[r.get('status') for r in reps]}")
metrics = reps[0].get("metrics", {})
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
note='7z not found on PATH (apt-get install p7zip-full); the archiver row is empty'
if [[ $have_7z -eq 0 ]]; then
  grep -qF "$note" "$dir/out" || { echo "7z is missing but the run log has no note saying so"; exit 1; }
  echo "ok: no 7z here, the note is in the run log"
else
  # The other branch too: the 7z job alone with a PATH holding no 7z.
  cat >"$dir/no7z.json" <<'JSON'
{"schema_version": 1, "name": "sysprobe-no-7z", "plugins": ["sysprobe"], "repetitions": 1,
 "phases": [{"name": "archiver", "steps": [{"step": "run_probe", "name": "sevenzip", "job": "7z-bench"}]}]}
JSON
  mkdir "$dir/empty-bin"
  PATH="$dir/empty-bin" "$stand" run "$dir/no7z.json" --run-dir "$dir/no7z" --plugin-path "$plugins" >"$dir/no7z.out" 2>&1 \
    || { cat "$dir/no7z.out"; exit 1; }
  grep -qF "$note" "$dir/no7z.out" || { cat "$dir/no7z.out"; echo "PATH without 7z: no note in the run log"; exit 1; }
  python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["reps"][0]["metrics"]
bad = [k for k in m if k.startswith("sevenzip.")]
sys.exit(f"PATH without 7z, yet metrics {bad}" if bad else 0)' "$dir/no7z/results.json"
  echo "ok: with no 7z on PATH the 7z job reports no metrics and the note"
fi
