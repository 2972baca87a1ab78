#!/usr/bin/env python3
"""`stand load` against the hostile peer (hostile_peer.py), one mode each.

    check_hostile.py STAND MODE...

For every mode, at once (each on a port the kernel picks, which the peer prints):
`stand load --json` and `stand load` (the human report) run side by side
for DURATION_S with TIMEOUT_S per request, and the check asserts

  - the run ends on time: wall time <= duration + timeout + SLACK_S;
  - memory stays bounded: peak RSS (from /usr/bin/time) <= RSS_BOUND_MIB;
  - the error is counted under its named reason: JSON errors[kind] and
    error_reasons[kind][reason] both equal the errors total, and the human
    report has the line "    N kind: reason";
  - the accounting holds: sent = completed + errors, the per-second series
    add up to the totals, the exit code is 1 exactly when nothing completed;
  - what the mode adds (a 101 never reuses its connection, no 999 is
    counted as a status, the control modes have no error at all).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_peer  # noqa: E402

DURATION_S = 2
TIMEOUT_S = 1
SLACK_S = 1.5
RSS_BOUND_MIB = 32
PORTS = {}  # mode -> the port its peer printed (it binds port 0: nothing else on the machine can hold it)
DEFAULT_LOAD = ["-t", "1", "-c", "4", "--rate", "20"]

# mode -> (kind, reason), or None for the modes that must give no error.
EXPECTED = {
    "control": None,
    "interim": None,
    "garbage": ("parse", "no HTTP/1.x status line"),
    "truncated-headers": ("closed", "closed in the headers"),
    "huge-content-length": ("closed", "closed in the body"),
    "bad-chunk-size": ("parse", "chunk size too large"),
    "malformed-header": ("parse", "malformed header"),
    "header-nul": ("parse", "NUL byte in the status line, a header or a trailer"),
    "1xx-flood": ("protocol", "more than 16 interim (1xx) answers"),
    "101": ("protocol", "101 Switching Protocols: the connection left HTTP/1.1"),
    "status-999": ("parse", "status code outside 100..599"),
    "slowloris": ("timeout", "headers incomplete at the timeout"),
    "reset": ("reset", "reset before any byte of the response"),
    "http09": ("parse", "no HTTP/1.x status line"),
    "enormous-header": ("parse", "header line longer than 8 KiB"),
    "header-flood": ("parse", "headers longer than 256 KiB"),
    "unsolicited": ("protocol", "bytes after the response that no request asked for"),
    "unsolicited-late": ("protocol", "bytes on an idle kept-alive connection that no request asked for"),
}
# The late unsolicited answer must find the connection idle: one connection, 250 ms apart.
LOAD_ARGS = {"unsolicited-late": ["-t", "1", "-c", "1", "--rate", "4"]}


def port_of(mode):
    return PORTS[mode]


def run_load(stand, mode, json_out, tmp):
    """One `stand load` run: (exit code, stdout, wall seconds, peak RSS in KiB)."""
    rss_file = os.path.join(tmp, f"{mode}-{'json' if json_out else 'text'}.rss")
    cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file, stand, "load", f"http://127.0.0.1:{port_of(mode)}/",
           "-d", f"{DURATION_S}s", "--timeout", f"{TIMEOUT_S}s", *LOAD_ARGS.get(mode, DEFAULT_LOAD)]
    if json_out:
        cmd.append("--json")
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    wall = time.monotonic() - t0
    with open(rss_file) as f:
        rss_kib = int(f.read().split()[-1])
    return p.returncode, p.stdout, p.stderr, wall, rss_kib


def check_mode(mode, runs):
    """The failures of one mode (empty: it passed)."""
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    (code_j, out_j, err_j, wall_j, rss_j), (code_t, out_t, err_t, wall_t, rss_t) = runs
    limit = DURATION_S + TIMEOUT_S + SLACK_S
    for label, wall, rss in (("--json", wall_j, rss_j), ("text", wall_t, rss_t)):
        expect(wall <= limit, f"{label} run took {wall:.2f}s, more than {limit}s")
        expect(rss <= RSS_BOUND_MIB * 1024, f"{label} run peaked at {rss / 1024:.1f} MiB RSS, over {RSS_BOUND_MIB} MiB")
    try:
        r = json.loads(out_j)
    except json.JSONDecodeError:
        return failures + [f"--json printed no JSON (exit {code_j}): {out_j[:200]!r} {err_j[:300]!r}"]
    req = r["requests"]
    expect(req["sent"] > 0, "no request was sent")
    expect(req["sent"] == req["completed"] + req["errors"],
           f"sent {req['sent']} != completed {req['completed']} + errors {req['errors']}")
    expect(sum(r["per_second"]["errors"]) == req["errors"], "per_second.errors do not add up to requests.errors")
    expect(sum(r["per_second"]["completed"]) == req["completed"], "per_second.completed do not add up")
    expect(sum(r["errors"].values()) == req["errors"], "errors by kind do not add up to requests.errors")
    expect("error_reasons" in r, "the JSON has no error_reasons")
    r.setdefault("error_reasons", {})
    for kind, reasons in r["error_reasons"].items():
        expect(sum(reasons.values()) == r["errors"][kind], f"reasons of {kind} do not add up to its count")
    for label, code, completed in (("--json", code_j, req["completed"]), ("text", code_t, None)):
        if completed is not None:
            expect(code == (0 if completed > 0 else 1), f"{label} exit {code} with {completed} completed")
        else:
            expect(code in (0, 1), f"{label} exit {code}: {err_t[:300]!r}")

    expected = EXPECTED[mode]
    if expected is None:
        expect(req["errors"] == 0, f"{req['errors']} errors: {r['error_reasons']}")
        expect(r["status_counts"] == {"200": req["completed"]}, f"status counts {r['status_counts']}")
        expect("Errors:" not in out_t, "the report shows errors")
        expect(re.search(r"Status codes: 200:\d+\n", out_t) is not None, "the report shows no 200s")
        return failures

    kind, reason = expected
    n = r["errors"].get(kind, 0)
    expect(n > 0 and n == req["errors"], f"errors {r['errors']}, expected all {req['errors']} as {kind}")
    got = r["error_reasons"].get(kind, {})
    expect(got.get(reason, 0) == n and n > 0, f"error_reasons {r['error_reasons']}, expected {kind}: {reason!r}")
    expect(re.search(rf"\n  Errors:.* {kind} \d+", out_t) is not None, f"the report has no 'Errors: ... {kind} N'")
    expect(re.search(rf"\n    \d+ {re.escape(kind)}: {re.escape(reason)}\n", out_t) is not None,
           f"the report has no line '    N {kind}: {reason}':\n{out_t}")
    if mode == "101":
        expect(req["completed"] == 0, f"{req['completed']} 101 answers counted as completed")
        expect(r["connections_opened"] >= n,
               f"{r['connections_opened']} connections for {n} 101 answers: a 101 connection was reused")
    if mode == "status-999":
        expect("999" not in r["status_counts"], f"999 counted as a status: {r['status_counts']}")
    return failures


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check_hostile.py STAND MODE...")
    stand, modes = sys.argv[1], sys.argv[2:]
    for mode in modes:
        if mode not in EXPECTED:
            sys.exit(f"unknown mode {mode!r}; modes: {', '.join(EXPECTED)}")
    # One process per peer: a flooding peer must not slow the others down (the GIL).
    peers = [subprocess.Popen([sys.executable, hostile_peer.__file__, "--mode", m, "--port", "0"],
                              stdout=subprocess.PIPE, text=True) for m in modes]
    for m, p in zip(modes, peers):
        line = p.stdout.readline()  # "hostile peer MODE on 127.0.0.1:PORT (pid N)": it listens
        found = re.search(r" on 127\.0\.0\.1:(\d+) ", line)
        if not found:
            sys.exit(f"the {m} peer did not say where it listens: {line!r}")
        PORTS[m] = int(found.group(1))
    results = {}
    with tempfile.TemporaryDirectory(prefix="stand-hostile-") as tmp:

        def run(mode, json_out):
            results[(mode, json_out)] = run_load(stand, mode, json_out, tmp)

        threads = [threading.Thread(target=run, args=(m, j)) for m in modes for j in (True, False)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for p in peers:
        p.terminate()
        p.wait()

    failed = 0
    for mode in modes:
        runs = (results[(mode, True)], results[(mode, False)])
        failures = check_mode(mode, runs)
        _, out, _, wall, rss = runs[0]
        try:
            req = json.loads(out)["requests"]
            summary = f"sent {req['sent']}, completed {req['completed']}, errors {req['errors']}"
        except (json.JSONDecodeError, KeyError):
            summary = "no JSON"
        print(f"{'ok  ' if not failures else 'FAIL'} {mode}: {summary}; {wall:.2f}s, {rss / 1024:.1f} MiB")
        for f in failures:
            print(f"     - {f}")
        failed += bool(failures)
    print(f"{len(modes) - failed} of {len(modes)} modes passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
