#!/usr/bin/env bash
# scenarios/one-server.json, short, against the panel test doubles: every
# repetition finishes, every row of the table has a value for every panel,
# the churn made no admin errors, and the storm sent what it offered.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 configs=$4; shift 4
dir=$(mktemp -d /tmp/stand-one-server.XXXXXX)
trap 'rm -rf "$dir"' EXIT
args=()
for p in "$@"; do args+=(--plugin "$p=@$configs/$p.json"); done
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${args[@]}" \
  --param users=20 --param settle_s=1 --param idle_s=2 --param storm_s=5 --param storm_rate=50 \
  --param repetitions=1 --param sample_ms=200
sed -n '/^| Metric/,/^$/p' "$dir/run/summary.md"
if grep -E '^\| [^|]+ \|.*\bn/a\b' "$dir/run/summary.md"; then echo "summary.md has n/a cells (above)"; exit 1; fi
python3 - "$dir/run" "$@" <<'PY'
import json, sys
run, panels = sys.argv[1], sys.argv[2:]
bad = False
for p in panels:
    rep = json.load(open(f"{run}/reps/{p}_r1.json"))
    m, churn = rep["metrics"], rep["loads"]["D_storm"]["churn"]
    req = rep["loads"]["D_storm"]["requests"]
    print(f"{p}: churn adds {churn['adds']} deletes {churn['deletes']} calls {churn['calls']} errors {churn['errors']};"
          f" storm offered {req['offered']} sent {req['sent']}; admin API back {m['E_restart.admin_api_seconds']:.2f} s")
    if rep["status"] != "ok" or churn["error_count"] or churn["adds"] < 4 or req["sent"] != req["offered"]:
        bad = True
sys.exit(1 if bad else 0)
PY
