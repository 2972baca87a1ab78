#!/usr/bin/env bash
# aliasing.json: the Go test server in a 0.3-vCPU box carries two tunnels;
# the box is throttled in both. The probe every 100 ms (the CFS period)
# fires probe-aliasing with the 97 ms fix, listed in summary.md; the probe
# every 97 ms stays silent.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 server=$4
source "$(dirname "$0")/run_with_box_server.sh"
python3 - "$dir/run" <<'PY'
import json, sys
run = sys.argv[1]
r = json.load(open(f"{run}/reps/hy_r1.json"))
bad = []
if r["status"] != "ok":
    print(f"FAIL: status {r['status']}: {r.get('reason')}"); sys.exit(1)
for step in ("P100", "P97"):
    cpu = r["windows"][step]["cpu"]
    print(f"{step}: throttled in {cpu['throttled_periods']} of {cpu['periods']} periods, "
          f"{r['loads'][step]['probes']['sent'] if 'probes' in r['loads'][step] else '?'} probes")
    if not cpu["throttled_periods"]:
        bad.append(f"{step}: the box was not throttled, so the fixture proves nothing")
fired = {f["scope"].split("step ")[-1]: f["message"] for f in r.get("findings", []) if f["id"] == "probe-aliasing"}
if "P100" not in fired or "e.g. 97 ms" not in fired["P100"]:
    bad.append(f"no probe-aliasing finding with the fix for the 100 ms probe: {fired}")
if "P97" in fired:
    bad.append(f"probe-aliasing fired for the 97 ms probe: {fired['P97']}")
summary = open(f"{run}/summary.md").read()
if "**probe-aliasing** (1x)" not in summary[summary.index("## What these numbers do not tell you"):]:
    bad.append("summary.md does not list probe-aliasing under 'What these numbers do not tell you'")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad)); sys.exit(1)
print("ok: 100 ms fired, 97 ms silent")
PY
