#!/usr/bin/env bash
# 1000 users through each panel adapter against its double, then a 300/s
# storm over their links from 1000 distinct source addresses: every rep
# finishes, every offered request is sent, and the achieved send rate and
# completion rate are within 1 % of the offered rate.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 configs=$4; shift 4
dir=$(mktemp -d /tmp/stand-scale.XXXXXX)
trap 'rm -rf "$dir"' EXIT
args=()
for p in "$@"; do  # each config with the ports something else on this machine holds moved
  "$(dirname "$0")/../relocate_ports.py" "$configs/$p.json" "$dir/$p-config.json" >/dev/null
  args+=(--plugin "$p=@$dir/$p-config.json")
done
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${args[@]}"
cat "$dir/run/summary.md"
python3 - "$dir/run" "$@" <<'PY'
import json, sys
run, panels = sys.argv[1], sys.argv[2:]
bad = False
for p in panels:
    rep = json.load(open(f"{run}/reps/{p}_r1.json"))
    load = rep["loads"]["storm"]
    req, rate, window = load["requests"], load["rate"], load["window_s"]
    offered = rate * window
    sent_rate, done_rate = req["sent"] / window, req["completed"] / window
    links = len(load["requests_per_link"]) if isinstance(load["requests_per_link"], list) else load["links"]
    print(f"{p}: users {rep['metrics']['users.users']:.0f}, offered {req['offered']} ({rate}/s), sent {req['sent']},"
          f" completed {req['completed']}, unsent {req['unsent']}, late {req['late']}, links {links},"
          f" sent/s {sent_rate:.1f}, completed/s {done_rate:.1f}")
    if rep["status"] != "ok" or rep["metrics"]["users.users"] != 1000 or links != 1000:
        print(f"  {p}: not ok"); bad = True
    for name, got in (("sent", sent_rate), ("completed", done_rate)):
        if abs(got - rate) / rate > 0.01:
            print(f"  {p}: {name} rate {got:.1f}/s is more than 1 % from the offered {rate}/s"); bad = True
sys.exit(1 if bad else 0)
PY
