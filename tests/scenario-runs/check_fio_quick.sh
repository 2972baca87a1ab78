#!/usr/bin/env bash
# scenarios/fio-quick.json cut to two of its jobs (RND4K Q32T1 read, SEQ1M
# Q8T1 write), 16 MiB / 1 s, run through `stand run` with the real fio: the
# repetition is ok, every probe metric of both steps is in results.json and
# positive, the job shapes are the scenario's, and no test file is left.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
command -v fio >/dev/null || { echo "fio is not installed (./stand.sh installs it)"; exit 77; }
dir=$(mktemp -d /var/tmp/stand-fio-quick.XXXXXX)  # on disk: the probe refuses tmpfs
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/data"
python3 - "$scenario" "$dir/fio-two-jobs.json" <<'PY'
import json, re, sys
text = "\n".join(l for l in open(sys.argv[1]) if not l.lstrip().startswith("//"))
scen = json.loads(re.sub(r",(\s*[}\]])", r"\1", text))  # comments and trailing commas out
keep = ("rnd4k_q32t1_read", "seq1m_q8t1_write")
for phase in scen["phases"]:
    phase["steps"] = [s for s in phase["steps"] if s["name"] in keep]
for table in scen["tables"]:
    table["rows"] = [r for r in table["rows"] if r["metric"].split(".")[0] in keep]
json.dump(scen, open(sys.argv[2], "w"), indent=1)
PY
"$stand" run "$dir/fio-two-jobs.json" --run-dir "$dir/run" --plugin-path "$plugins" \
  --param dir="$dir/data" --param size_mib=16 --param duration_s=1
sed -n '/^| Metric/,/^$/p' "$dir/run/summary.md"
python3 - "$dir/run/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
(rep,) = results["reps"]
assert rep["status"] == "ok", rep.get("reason")
m = rep["metrics"]
bad = []
for step, bs, qd in (("rnd4k_q32t1_read", 4096, 32), ("seq1m_q8t1_write", 1048576, 8)):
    for k in ("mb_s", "mib_s", "iops", "lat_mean_us", "cpu_s", "cpu_pct", "cpu_us_per_io", "ios", "seconds"):
        v = m.get(f"{step}.{k}")
        if not isinstance(v, (int, float)) or v <= 0:
            bad.append(f"{step}.{k} = {v!r}")
    for k, want in (("block_size", bs), ("queue_depth", qd), ("jobs", 1), ("size_mib", 16)):
        if m.get(f"{step}.{k}") != want:
            bad.append(f"{step}.{k} = {m.get(f'{step}.{k}')!r}, expected {want}")
    print(f"{step}: {m[f'{step}.mb_s']:.1f} MB/s, {m[f'{step}.iops']:.0f} IOPS, "
          f"{m[f'{step}.lat_mean_us']:.1f} us mean, {m[f'{step}.cpu_us_per_io']:.2f} us CPU per I/O")
if bad:
    sys.exit("bad metrics: " + "; ".join(bad))
PY
left=$(find "$dir/data" -name 'stand-fio.*' | wc -l)
[[ $left -eq 0 ]] || { echo "test files left in $dir/data:"; ls -la "$dir/data"; exit 1; }
echo "ok: two fio jobs through stand run, all metrics positive, test files removed"
