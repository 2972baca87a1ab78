#!/usr/bin/env bash
# defaults_differ.json: two systems whose "workers" differs and the scenario
# did not set it (defaults-differ fires, naming the setting and both values,
# in summary.md's "What these numbers do not tell you"); the same with equal
# values, and defaults_set.json (the scenario sets it): silent.
set -euo pipefail
stand=$1 scenario=$2 set_scenario=$3 plugins=$4
dir=$(mktemp -d /tmp/stand-defaults-differ.XXXXXX)
trap 'rm -rf "$dir"' EXIT
run() {
  local name=$1 file=$2; shift 2
  "$stand" run "$file" --run-dir "$dir/$name" --plugin-path "$plugins" "$@" >"$dir/$name.log" 2>&1 \
    || { cat "$dir/$name.log"; echo "FAIL: the $name run failed"; exit 1; }
  sed -n '/^## What these numbers do not tell you/,/^Always true/p' "$dir/$name/summary.md" | sed "s/^/$name: /"
}
run differ "$scenario"
run set_by_scenario "$set_scenario"
run equal "$scenario" --param b_workers=1
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
bad = []
def findings(name):
    return [f for f in json.load(open(f"{d}/{name}/results.json"))["findings"] if f["id"] == "defaults-differ"]
f = findings("differ")
if len(f) != 1 or "workers differs (sys-a 1; sys-b 2)" not in f[0]["message"] or "ranks this setting" not in f[0]["message"]:
    bad.append(f"differ: expected one defaults-differ finding on workers, got {f}")
summary = open(f"{d}/differ/summary.md").read()
if "**defaults-differ** (1x)" not in summary[summary.index("## What these numbers do not tell you"):]:
    bad.append("differ: summary.md does not list defaults-differ under 'What these numbers do not tell you'")
for name in ("set_by_scenario", "equal"):
    if findings(name):
        bad.append(f"{name}: defaults-differ fired: {findings(name)}")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad)); sys.exit(1)
print("ok: fired on the unset differing setting, silent when set or equal")
PY
