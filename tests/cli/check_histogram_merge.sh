#!/usr/bin/env bash
# Two `stand load` runs against one `stand backend`, each writing its
# histograms (--histogram-out), merged with --merge-histograms: the merged
# histogram is slot by slot the sum of the two (count, min, max and sum
# exact), and its percentiles are the merged histogram's own, not an average
# of the inputs' (issue 19: generators on several hosts, one load step).
# Both start at one instant (--start-at), as generators on several hosts do.
#   check_histogram_merge.sh STAND
set -uo pipefail
stand=$1
source "$(dirname "$0")/../stand_backend.sh"
start_backend "$stand" hdr-merge
# Two generators started together at one wall-clock instant (--start-at).
at=$(python3 -c 'import time; print(f"{time.time() + 1.0:.6f}")')
"$stand" load "$url" -c 4 -d 1 --start-at "$at" --json --histogram-out "$dir/a.json" >"$dir/a.out" 2>"$dir/a.err" &
pa=$!
"$stand" load "$url" -t 1 -c 1 -d 1 --rate 300 --start-at "$at" --json --histogram-out "$dir/b.json" >"$dir/b.out" \
  2>"$dir/b.err" || fail "load b"
wait $pa || fail "load a"
python3 - "$dir" "$at" <<'PY' || fail "the generators did not start together"
import json, sys
d, at = sys.argv[1], round(float(sys.argv[2]) * 1e9)
for n in ("a", "b"):
    s = json.load(open(f"{d}/{n}.out"))["start"]
    assert abs(s["planned_unix_ns"] - at) < 1000, s
    assert 0 <= s["late_us"] < 100_000, s  # woken within 100 ms of the instant, on a busy CI machine
PY
"$stand" load --merge-histograms "$dir/a.json" "$dir/b.json" --json >"$dir/m.json" 2>"$dir/m.err" || fail "merge"
"$stand" load --merge-histograms "$dir/a.json" "$dir/b.json" >"$dir/m.txt" 2>>"$dir/m.err" || fail "merge (text)"
grep -q "^merged 2 histogram files (latency, us):" "$dir/m.txt" || fail "no text summary: $(cat "$dir/m.txt")"
python3 - "$dir" <<'PY' || fail "the merge is not the union"
import json, sys
d = sys.argv[1]
a, b, m = (json.load(open(f"{d}/{n}.json")) for n in ("a", "b", "m"))
assert m["schema"] == "stand.load-merge/1" and m["inputs"] == 2, m.keys()
for kind in ("latency", "service"):
    for cls in set(a[kind]) | set(b[kind]):
        ha, hb = a[kind].get(cls), b[kind].get(cls)
        hm = m["histograms"][kind][cls]
        parts = [h for h in (ha, hb) if h]
        slots = {}
        for h in parts:
            for i, n in h["slots"]:
                slots[i] = slots.get(i, 0) + n
        assert hm["slots"] == sorted([i, n] for i, n in slots.items()), (kind, cls)
        assert hm["total"] == sum(h["total"] for h in parts), (kind, cls)
        assert hm["sum"] == str(sum(int(h["sum"]) for h in parts)), (kind, cls)
        assert hm["min"] == min(h["min"] for h in parts) and hm["max"] == max(h["max"] for h in parts), (kind, cls)
total = m["latency"]["all"]["count"]
assert total == a["latency"]["all"]["total"] + b["latency"]["all"]["total"] > 0, total
print(f"merged {total} responses: slots, count, sum, min and max are the union's")
PY
# Broken input is refused naming the file and the key.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["latency"]["all"]["total"]+=1; json.dump(d,open(sys.argv[2],"w"))' "$dir/a.json" "$dir/bad.json"
"$stand" load --merge-histograms "$dir/a.json" "$dir/bad.json" >/dev/null 2>"$dir/bad.err"
[[ $? == 2 ]] || fail "a histogram file that does not add up was not a usage error"
grep -q "bad.json: latency.all: stand.hdr/1: the slots count" "$dir/bad.err" || fail "the refusal names no file and key"
"$stand" load "$url" -d 1 --histogram-out /nonexistent/h.json >/dev/null 2>"$dir/nodir.err"
[[ $? == 2 ]] || fail "an unwritable --histogram-out was not refused before the load"
echo "ok: two loads' histograms merge slot by slot into the union"
