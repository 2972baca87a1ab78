"""Reads a `stand load --hdr-log` file with the HdrHistogram project's own
Python library (hdrh) and holds it to what the same run reported:
  check_hdr_log.py LOG HISTOGRAMS_JSON RESULT_JSON DURATION_S INTERVAL_S STARTED_UNIX_S
the intervals cover the run (window and drain) one after another, their
counts add up to the responses, the merged intervals are slot by slot the
run's "all" latency histogram (--histogram-out; HISTOGRAMS_JSON "-": not
compared), and the library's percentiles and max of the merge are stand's
(within an equivalence range). RESULT_JSON is `stand load --json`'s output,
or a repetition of `stand run` with LOAD_STEP, its loads.LOAD_STEP."""
import json
import math
import sys

from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

log, histograms_file, result_file = sys.argv[1:4]
duration, interval, started = (float(a) for a in sys.argv[4:7])
result = json.load(open(result_file))
if len(sys.argv) > 7:
    result = result["loads"][sys.argv[7]]
slots = dict(json.load(open(histograms_file))["latency"]["all"]["slots"]) if histograms_file != "-" else None
latency = result["latency_us"]["all"]


def fail(why):
    sys.exit(f"FAIL {log}: {why}")


reader = HistogramLogReader(log, HdrHistogram(1, 3600000000, 3))
intervals = []
while (h := reader.get_next_interval_histogram()) is not None:
    intervals.append(h)
rows = [line.rstrip("\n").split(",") for line in open(log) if line[:1].isdigit()]
if len(rows) != len(intervals):
    fail(f"{len(rows)} interval lines, the library read {len(intervals)}")

# The intervals: one after another from the window's opening, to the end of the drain.
in_window = round(duration / interval)
if len(intervals) not in (in_window, in_window + 1):
    fail(f"{len(intervals)} intervals for {duration} s in intervals of {interval} s")
start_time = reader.get_start_time_sec()
if not started - 1 <= start_time <= started + 10:
    fail(f"StartTime {start_time} is not when the load started ({started})")
for i, (row, h) in enumerate(zip(rows, intervals)):
    start, length = float(row[0]), float(row[1])
    if abs(start - i * interval) > 0.0005 or not 0 <= length <= interval + 0.0005:
        fail(f"interval {i} is {start}+{length} s")
    if i + 1 < len(rows) and abs(length - interval) > 0.0005:
        fail(f"interval {i} is {length} s long, not {interval}")
    if abs(h.get_start_time_stamp() - (start_time + start) * 1000) > 1:
        fail(f"interval {i} starts at {h.get_start_time_stamp()} ms")
    column_max = round(float(row[2]) * 1000)  # ms in the column, us in the histograms
    if h.get_total_count() == 0:
        if i < in_window:
            fail(f"interval {i} of the window holds no response")
        if column_max != 0:
            fail(f"empty interval {i} has Interval_Max {row[2]}")
    elif not h.values_are_equivalent(column_max, h.get_max_value()):
        fail(f"interval {i}: Interval_Max {row[2]} ms, the histogram's max {h.get_max_value()} us")
end = float(rows[-1][0]) + float(rows[-1][1])
if abs(end - result["elapsed_s"]) > 0.002:
    fail(f"the intervals end at {end} s, the run at {result['elapsed_s']} s")

# Every response once; the merge is the run's histogram, slot by slot.
merged = HdrHistogram(1, 3600000000, 3)
for h in intervals:
    merged.add(h)
total = merged.get_total_count()
if not total == result["requests"]["completed"] == latency["count"] > 0:
    fail(f"the intervals count {total} responses, stand {result['requests']['completed']}")
decoded = {i: merged.get_count_at_index(i) for i in range(merged.counts_len) if merged.get_count_at_index(i)}
if slots is not None and decoded != {int(i): n for i, n in slots.items()}:
    fail("the merged intervals' counts are not the run's latency histogram (--histogram-out)")


def value_at_rank(h, rank):
    seen = 0
    for i in range(h.counts_len):
        seen += h.get_count_at_index(i)
        if seen >= rank:
            return h.get_highest_equivalent_value(h.get_value_from_index(i))
    fail(f"no rank {rank}")


# stand takes the nearest rank ceil(p n / 100), the library rounds p n / 100:
# where those ranks differ, stand's value is compared with the library's at stand's rank.
for p, key in ((50, "p50"), (90, "p90"), (99, "p99"), (99.9, "p99_9")):
    ours, theirs = latency[key], merged.get_value_at_percentile(p)
    rank = max(1, math.ceil(p * total / 100))
    if rank != merged.get_target_count_at_percentile(p):
        theirs = value_at_rank(merged, rank)
    if not merged.values_are_equivalent(ours, theirs):
        fail(f"{key}: stand {ours} us, the library {theirs} us")
if not merged.values_are_equivalent(latency["max"], merged.get_max_value()):
    fail(f"max: stand {latency['max']} us, the library {merged.get_max_value()} us")
print(f"ok {log}: {len(intervals)} intervals of {interval} s, {total} responses; "
      f"p50 {latency['p50']} p99 {latency['p99']} max {latency['max']} us as the library reads them")
