#!/usr/bin/env python3
"""`stand compat PLUGIN --target-config TARGET` against a fixture panel must
fail exactly the check named, with a message holding the given text.

    check_panel_fixture.py STAND PLUGIN TARGET PLUGIN_DIR CHECK TEXT
                           [--netns] [--max-seconds N] [--contains TEXT]... [--others-may-fail] [--passes]

--netns: run in a private network namespace with only loopback up, for a
fixture that binds 0.0.0.0 (nothing outside the machine can reach it).
--max-seconds: the whole compat run must take less than N seconds.
--passes: run CHECK alone (--check) and expect it to pass, its message holding
the text.
"""

import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from relocate_ports import relocate  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    for name in ("stand", "plugin", "target", "plugin_dir", "check", "text"):
        p.add_argument(name)
    p.add_argument("--netns", action="store_true")
    p.add_argument("--max-seconds", type=float, default=0)
    p.add_argument("--contains", action="append", default=[], help="more text the message must hold")
    p.add_argument("--others-may-fail", action="store_true",
                   help="CHECK must fail with TEXT; other checks may fail too")
    p.add_argument("--passes", action="store_true", help="run CHECK alone; it must pass with TEXT")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="stand-panel-fixture-")
    atexit.register(shutil.rmtree, work, True)
    target = os.path.join(work, "target.json")
    a.text, *a.contains = relocate(a.target, target, [a.text, *a.contains])  # ports something else holds, moved
    cmd = [a.stand, "compat", a.plugin, "--plugin-path", a.plugin_dir, "--target-config", target, "--json"]
    if a.passes:
        cmd += ["--check", a.check]
    if a.netns:
        cmd = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"] + cmd
    t0 = time.monotonic()
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    took = time.monotonic() - t0
    try:
        report = json.loads(run.stdout)
    except ValueError:
        sys.exit("stand compat printed no JSON report (exit %d): %s %s" % (run.returncode, run.stdout, run.stderr))
    failed = [c for c in report["checks"] if c["result"] == "FAIL"]
    for c in report["checks"]:
        print("%-36s %-4s %s" % (c["id"], c["result"], c["message"]))
    if a.passes:
        sys.exit(passing_problems(a, run, report))
    problems = []
    if run.returncode == 0:
        problems.append("stand compat exited 0")
    named = [c for c in failed if c["id"] == a.check]
    if a.others_may_fail and named:
        failed = named
    if [c["id"] for c in failed] != [a.check]:
        problems.append("expected exactly %s to fail, failed: %s" % (a.check, [c["id"] for c in failed] or "none"))
    else:
        for text in [a.text] + a.contains:
            if text not in failed[0]["message"]:
                problems.append("the message of %s lacks %r" % (a.check, text))
    if a.max_seconds and took >= a.max_seconds:
        problems.append("took %.1f s, expected under %.0f s" % (took, a.max_seconds))
    if problems:
        sys.exit("; ".join(problems))
    print("ok: %s failed as expected%s (%.1f s)" % (a.check, "" if a.others_may_fail else ", alone", took))


def passing_problems(a, run, report):
    """--passes: None when CHECK alone ran and passed with every text, else what was wrong."""
    problems = []
    if run.returncode != 0:
        problems.append("stand compat exited %d: %s" % (run.returncode, run.stderr.strip()))
    if [(c["id"], c["result"]) for c in report["checks"]] != [(a.check, "pass")]:
        problems.append("expected %s alone to pass, ran: %s"
                        % (a.check, [(c["id"], c["result"]) for c in report["checks"]]))
    else:
        problems += ["the message of %s lacks %r" % (a.check, t) for t in [a.text] + a.contains
                     if t not in report["checks"][0]["message"]]
    if problems:
        return "; ".join(problems)
    print("ok: %s passed alone" % a.check)
    return None


if __name__ == "__main__":
    main()
