#!/usr/bin/env bash
# gomaxprocs.json: the Go test server in a 1-vCPU quota box. With
# GOMAXPROCS=2 in its environment go-runtime-oversized fires (naming the
# override and the box's throttling) and summary.md lists it under "What
# these numbers do not tell you"; without the override Go >= 1.25 sizes
# itself from the quota and the detector stays silent (on 2+ CPUs Go's floor
# of 2 is a caveat under "Go runtimes in the box").
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 server=$4
source "$(dirname "$0")/run_with_box_server.sh"
python3 - "$dir/run" <<'PY'
import json, sys
run = sys.argv[1]
bad = []
def rep(label):
    return json.load(open(f"{run}/reps/{label}_r1.json"))
for label, want in (("hy-gomaxprocs2", True), ("hy-default", False)):
    r = rep(label)
    if r["status"] != "ok":
        bad.append(f"{label}: status {r['status']}: {r.get('reason')}")
        continue
    go = r.get("go_runtimes", [])
    if len(go) != 1 or not go[0]["go_version"].startswith("go1."):
        bad.append(f"{label}: expected the one Go server in go_runtimes, got {go}")
    else:
        print(f"{label}: {go[0]['process']} {go[0]['go_version']}, GOMAXPROCS env {go[0]['gomaxprocs_env']}, "
              f"{go[0]['affinity_cpus']} CPUs, quota {go[0]['cpu_quota_us']}/{go[0]['cpu_period_us']}: "
              f"{go[0]['gomaxprocs']} Ps ({go[0]['gomaxprocs_how']})")
    fired = [f for f in r.get("findings", []) if f["id"] == "go-runtime-oversized"]
    if want and not (fired and "GOMAXPROCS=2 in its environment" in fired[0]["message"]
                     and "CFS periods" in fired[0]["message"]):
        bad.append(f"{label}: no go-runtime-oversized finding naming the override and the throttling: {fired}")
    if not want and fired:
        bad.append(f"{label}: go-runtime-oversized fired without an override: {fired}")
summary = open(f"{run}/summary.md").read()
tail = summary[summary.index("## What these numbers do not tell you"):]
if "**go-runtime-oversized** (1x)" not in tail or "hy-gomaxprocs2 rep 1" not in tail:
    bad.append("summary.md does not list go-runtime-oversized for hy-gomaxprocs2 under 'What these numbers do not tell you'")
if "## Go runtimes in the box" not in summary:
    bad.append("summary.md has no 'Go runtimes in the box' section")
default = rep("hy-default").get("go_runtimes", [{}])[0]
if default.get("affinity_cpus", 0) >= 2 and "Go rounds a limit up and never below 2" not in summary:
    bad.append("summary.md does not say that Go's floor of 2 puts hy-default above the 1-vCPU box")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad)); sys.exit(1)
print("ok: fired with GOMAXPROCS=2, silent without")
PY
