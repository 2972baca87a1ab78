#!/usr/bin/env python3
"""Signals a command's whole process group, as a terminal does.

    group_signal.py SIGNAL WHEN -- CMD...

Starts CMD in a process group of its own (a terminal's job), waits until WHEN
(seconds, or "file:PATH" until PATH exists, at most 60 s), sends SIGNAL (INT,
TERM, HUP) to the whole group, and waits up to 30 s for CMD to end. This
process is a child subreaper, so whatever CMD started and left behind stays
below it: every such process is listed, then killed. Prints
"exit CODE after S s; left behind: N" and, per process left, its pid and
command line. Exit 0 whatever CMD did: the caller judges the line.
"""
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def descendants():
    pids, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            pids += kids
            todo += kids
    return pids


def living(pid):
    """Not a zombie: a process that ended but was not reaped yet is gone for this purpose."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def main():
    sig_name, when = sys.argv[1], sys.argv[2]
    cmd = sys.argv[4:] if sys.argv[3] == "--" else sys.exit("usage: group_signal.py SIGNAL WHEN -- CMD...")
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    proc = subprocess.Popen(cmd, process_group=0)
    deadline = time.monotonic() + 60
    if when.startswith("file:"):
        while not os.path.exists(when[5:]) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
    else:
        time.sleep(float(when))
    sent = time.monotonic()
    try:
        os.killpg(proc.pid, getattr(signal, "SIG" + sig_name))
    except ProcessLookupError:
        pass
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        code = "none (still running after 30 s)"
        proc.kill()
        proc.wait()
    took = time.monotonic() - sent
    time.sleep(0.3)  # what was orphaned just now has been reparented here
    left = [pid for pid in descendants() if living(pid)]
    print(f"exit {code} after {took:.2f} s; left behind: {len(left)}")
    for pid in left:
        print(f"  left: {pid} {cmdline(pid)}")
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    while True:  # reap everything that was reparented here
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                break
        except ChildProcessError:
            break


if __name__ == "__main__":
    main()
