#!/usr/bin/env bash
# A bad scenario fails before anything is measured, naming the file and the JSON path.
set -uo pipefail
stand=$1
dir=$(mktemp -d /tmp/stand-badscen.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
expect() {  # NAME REGEX JSON [EXIT]
  printf '%s' "$3" > "$dir/$1.json"
  out=$("$stand" run "$dir/$1.json" --run-dir "$dir/run-$1" 2>&1); code=$?
  if [[ $code -ne ${4:-2} ]] || ! grep -qE -- "$2" <<<"$out" || [[ -e "$dir/run-$1" ]]; then
    echo "FAIL $1: exit $code, run dir created: $([[ -e $dir/run-$1 ]] && echo yes || echo no), output:"; echo "$out"; fail=1
  else
    echo "ok $1: $out"
  fi
}
base='"schema_version": 1, "name": "x", "phases": [{"name": "p", "steps": [{"step": "start"}]}]'
expect unknown_key '\$\.repetitons: expected a key of a scenario' "{$base, \"plugins\": [\"hello\"], \"repetitons\": 3}"
expect wrong_type '\$\.repetitions: expected' "{$base, \"plugins\": [\"hello\"], \"repetitions\": \"3\"}"
expect adaptive_max_below_min '\$\.repetitions\.max: expected an integer ≥ min \(3\), got 2' "{$base, \"plugins\": [\"hello\"], \"repetitions\": {\"min\": 3, \"max\": 2, \"until\": {\"metric\": \"x.y\", \"ci_width_pct\": 5}}}"
expect adaptive_unknown_metric '\$\.repetitions\.until\.metric: expected a metric produced by a step \(no step produces metrics\), got "load1\.rps"' "{$base, \"plugins\": [\"hello\"], \"repetitions\": {\"min\": 3, \"max\": 9, \"until\": {\"metric\": \"load1.rps\", \"ci_width_pct\": 5}}}"
expect bad_step '\$\.phases\[0\]\.steps\[0\]' '{"schema_version": 1, "name": "x", "plugins": ["hello"], "phases": [{"name": "p", "steps": [{"step": "jump"}]}]}'
expect missing_plugin 'refused .*missing_plugin\.json: \$\.plugins\[0\]: no-such-plugin: no plugin with this id' "{$base, \"plugins\": [\"no-such-plugin\"]}" 3
expect syntax 'syntax\.json:1:22: invalid JSON' '{"schema_version": 1,, }'
exit $fail
