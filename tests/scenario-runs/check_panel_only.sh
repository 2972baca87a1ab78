#!/usr/bin/env bash
# scenarios/panel-only.json, short, against the panel test doubles: every
# repetition finishes, summary.md has a value (no n/a) in every row for every
# panel, (when the Mistgate double takes part) the 429 detector fires, and
# the host's own peak RSS that every repetition records (getrusage of the
# host process: plugins run in workers) stays under HOST_RSS_CEILING_KIB.
# The ceiling is 18 MiB with four panels (measured 15.4-16.3 MiB on
# 2026-12-04: the host's peak grows a little with each repetition it keeps)
# and 17.5 MiB with one (scenario.panel_only_host_rss; measured 15.2-15.7 MiB
# on 2026-12-05 with the capacity searches, whose open-model levels put it
# at 16.5 MiB before histograms kept only the pages their values touch;
# 15.5-16.3 MiB on 2026-12-06 once every load step kept a histogram per
# second for its interval log, hdr/<key>.<step>.hlog).
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 configs=$4; shift 4
dir=$(mktemp -d /tmp/stand-panel-only.XXXXXX)
trap 'rm -rf "$dir"' EXIT
args=()
for p in "$@"; do  # each config with the ports something else on this machine holds moved
  "$(dirname "$0")/../relocate_ports.py" "$configs/$p.json" "$dir/$p-config.json" >/dev/null
  args+=(--plugin "$p=@$dir/$p-config.json")
done
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${args[@]}" \
  --param users=5 --param idle_settle_s=1 --param idle_window_s=2 --param load_s=3 --param after_load_settle_s=1 --param after_load_s=2 --param stopped_s=1 \
  --param connections=8 --param repetitions=2 --param sample_ms=200 \
  --param cap_from_rate=20 --param cap_to_rate=320 --param cap_dwell_s=1 --param cap_resolution_pct=50 \
  --param admin_cap_from_rate=4 --param admin_cap_to_rate=16 --param admin_cap_dwell_s=1
cat "$dir/run/summary.md"
header=$(grep -m1 '^| Metric |' "$dir/run/summary.md")
for p in "$@"; do
  grep -q "| $p (n=2) " <<<"$header" || { echo "summary.md: no column '$p (n=2)' in: $header"; exit 1; }
done
# A capacity search may find no rate that met its objective (the Mistgate double's 429s): n/a is its answer.
if grep -E '^\| [^|]+ \|.*\bn/a\b' "$dir/run/summary.md" | grep -v '^| Capacity: '; then
  echo "summary.md has n/a cells (above)"; exit 1
fi
rows=$(awk '/^## Panels alone/{t=1;next} /^## /{t=0} t && /^\| [^M-]/' "$dir/run/summary.md" | wc -l)
[[ $rows -ge 31 ]] || { echo "expected 31 metric rows, found $rows"; exit 1; }
if [[ " $* " == *" mistgate "* ]]; then
  grep -q 'mostly-429' "$dir/run/summary.md" || { echo "the 429 detector did not fire for the Mistgate double"; exit 1; }
fi
ceiling=${HOST_RSS_CEILING_KIB:-18432}
for rep in "$dir"/run/reps/*.json; do
  rss=$(grep -oE '"peak_rss_kib": *[0-9]+' "$rep" | grep -oE '[0-9]+$' | head -1)
  [[ -n $rss ]] || { echo "$(basename "$rep"): no host peak_rss_kib"; exit 1; }
  echo "host peak RSS in $(basename "$rep"): $rss KiB"
  ((rss < ceiling)) || { echo "$(basename "$rep"): the host's peak RSS $rss KiB is over $ceiling KiB"; exit 1; }
done
echo "ok: $rows rows for: $*"
