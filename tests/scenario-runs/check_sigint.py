#!/usr/bin/env python3
"""SIGINT during a step of `stand run`: the run exits 130 within 1.5 s of the
signal, nothing it started is left running, and the repetition is recorded
as interrupted (so --resume redoes it).

usage: check_sigint.py GROUP STAND FIXTURES PLUGINS BAD_PLUGINS [HY2SERVER]

GROUP is one of
  steps     the step kinds the host drives (a load, a wait, a tunnel), each
            in a scenario of its own against `stand backend`, and one kind
            per plugin interface whose step is one plugin call, against
            fixture-stall (tests/fixtures/stall_plugin.cpp), which stalls in
            that call deaf to cancellation with a child process of its own:
            what ends such a step is the worker's kill, the same for every
            call. Every kind is interrupted at each of its plugin calls, on a
            fake port, by tests/unit/steps/interrupt_test.cpp, which fails
            on a kind without a sample; here a kind `stand run --list-steps`
            names that is neither a case nor in PORT_ONLY fails. The two
            tunnel steps need the Hysteria 2 test server (HY2SERVER) and are
            left out, saying so, without it
  sysprobe  sysprobe's 7z-bench (when 7z is installed) and cpu-1t
  create    a plugin hanging in create(): bad-hang (tests/bad-plugins/hang.c)
            and fixture-stall stalling in its constructor

Every process the run starts carries STAND_SIGINT_MARK=<case> in its
environment (nothing clears it), so a leftover is found whatever its process
group or session: /proc/*/environ is searched for the mark after the exit.
Uses only 127.0.0.1 ports 27630..27639, or the next block of ten free ones.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

GRACE_S = 1.5            # from SIGINT to the exit of `stand run`
# Steps that are plugin calls (their interruption is the worker's, as for
# install and the other cases below), and the two whose success needs a
# panel's Hysteria links: interrupted at each call by the unit test only.
PORT_ONLY = {"start", "stop", "wipe", "restart", "bootstrap", "disk_usage", "revoke_under_traffic",
             "traffic_accounting"}
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from relocate_ports import free_block  # noqa: E402

BASE = free_block(27630, 10)  # 27630.. unless something else on the machine holds one of them
BACKEND = f"127.0.0.1:{BASE}"
BACKEND_CONTROL = f"127.0.0.1:{BASE + 1}"
CLOSED_PORT = f"127.0.0.1:{BASE + 2}"  # nothing listens there: readiness never answers

group, stand, fixtures, plugins, bad_plugins = sys.argv[1:6]
hy2server = sys.argv[6] if len(sys.argv) > 6 else ""
stall_plugin = os.path.join(fixtures, "fixture-stall.so")
failures = []


def stall(call, **extra):
    config = {"stall": call, "child": True, "endpoint": BACKEND}
    config.update(extra)
    return {"id": stall_plugin, "config": config}


def case(name, steps, plugin, signal_after, **scenario):
    """signal_after: a line of stand's stderr that shows the step is under way."""
    return {"name": name, "steps": steps, "plugin": plugin, "after": signal_after, "scenario": scenario}


def step(kind, **keys):
    return dict({"step": kind, "name": "target"}, **keys)


def host_step(kind, **keys):  # a step the host drives: SIGINT once it has started
    return case(kind, [step(kind, **keys)], stall(""), "main/target")


def plugin_step(kind, call, before=(), **keys):  # a step that is one stalled plugin call
    return case(kind, list(before) + [step(kind, **keys)], stall(call), "stalling in " + call)


def step_cases():
    long = 60
    cases = [
        plugin_step("install", "install"),
        case("wait_ready", [step("wait_ready", timeout_s=long)],
             {"id": stall_plugin, "config": {"endpoint": CLOSED_PORT}}, "main/target"),
        host_step("sleep", duration_s=long),
        host_step("idle", duration_s=long),
        host_step("load", duration_s=long, connections=4),
        plugin_step("run_probe", "run", job="tick"),
        plugin_step("create_users", "create_user", count=3),
        plugin_step("configure", "configure"),
        host_step("websocket", duration_s=long, connections=4),
        host_step("hold_idle", connections=20, hold_s=long),
        host_step("capacity", urls=[f"http://{BACKEND}/"], from_rate=50, to_rate=100, dwell_s=long,
                  objective={"p95_ms": 1000}),
        # the cooperative path: the plugin sees cancelled() and returns by itself
        case("run_probe-heeding", [step("run_probe", job="tick")], stall("run", heed_cancel=True),
             "stalling in run"),
    ]
    if hy2server and os.access(hy2server, os.X_OK):
        cases += tunnel_cases(long)
    else:
        print(f"note: tunnel_throughput and many_clients left out: no Hysteria 2 test server ({hy2server or 'none given'})")
    return cases


def registry_kinds():
    out = subprocess.run([stand, "run", "--list-steps"], capture_output=True, text=True, check=True).stdout
    return {m.group(1) for m in re.finditer(r"(?m)^([a-z_]+)(?:  \(stand\.[a-z]+/\d+\))?$", out)}


def check_coverage(cases):
    covered = {c["steps"][-1]["step"] for c in cases} | PORT_ONLY
    missing = registry_kinds() - covered
    tunnels = {"tunnel_throughput", "many_clients"}
    if not (hy2server and os.access(hy2server, os.X_OK)):
        missing -= tunnels
    if missing:
        failures.append("step kinds with no SIGINT case here nor in PORT_ONLY: " + ", ".join(sorted(missing)))
        print("FAIL coverage: no case for " + ", ".join(sorted(missing)))


def tunnel_cases(long):
    server = start_hy2server()
    return [
        case("tunnel_throughput", [{"step": "start"}, step("tunnel_throughput", server=server, streams=2, duration_s=long)],
             stall(""), "main/target", backend={}),
        case("many_clients", [step("many_clients", server=server, clients=4, duration_s=long, ramp_s=1, every_s=0.5)],
             stall(""), "main/target", backend={}),
    ]


def sysprobe_cases():
    sysprobe = {"id": "sysprobe", "config": {}}
    cases = [case("cpu-1t", [step("run_probe", job="cpu-1t", params={"duration_s": 30})], sysprobe, "main/target")]
    if shutil.which("7z"):
        cases.append(case("7z-bench", [step("run_probe", job="7z-bench", params={"iterations": 50})], sysprobe,
                          "main/target", wait_for_process="7z b"))
    else:
        print("note: 7z-bench left out: no 7z on PATH (apt-get install p7zip-full)")
    return cases


def create_cases():
    return [
        # bad-hang says nothing: its worker is up, then it is in create() for good
        case("bad-hang", [{"step": "sleep", "duration_s": 1}], {"id": os.path.join(bad_plugins, "bad-hang.so")},
             None, wait_for_process="__worker"),
        case("stall-create", [{"step": "sleep", "duration_s": 1}], stall("create"), "stalling in create"),
    ]


work = tempfile.mkdtemp(prefix="stand-sigint.")
helpers = []


def start_helper(argv, ready):
    out = open(os.path.join(work, f"helper{len(helpers)}.out"), "w+")
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    helpers.append(p)
    for _ in range(100):
        out.seek(0)
        text = out.read()
        if ready(text):
            return text
        time.sleep(0.1)
    raise SystemExit(f"{argv[0]} did not start: {text}")


def start_hy2server():
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", f"{work}/key.pem", "-out", f"{work}/cert.pem", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    with open(f"{work}/users", "w") as f:
        f.write("alice\n")
    text = start_helper([hy2server, "--listen", f"127.0.0.1:{BASE + 3}", "--control", f"127.0.0.1:{BASE + 4}", "--cert",
                         f"{work}/cert.pem", "--key", f"{work}/key.pem", "--users", f"{work}/users"],
                        lambda t: t.startswith("ready") or "\nready" in t)
    return f"hysteria2://alice@127.0.0.1:{BASE + 3}/?insecure=1"


def marked(mark):
    """Live processes whose environment holds STAND_SIGINT_MARK=<mark>."""
    needle = f"STAND_SIGINT_MARK={mark}\0".encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read() + b"\0":
                    with open(f"/proc/{pid}/cmdline", "rb") as c:
                        cmdline = c.read().replace(b"\0", b" ").decode(errors="replace").strip()
                    found.append(f"{pid} {cmdline}")
        except OSError:
            pass
    return found


def wait_for_line(path, text, proc, limit_s=30):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        with open(path, errors="replace") as f:
            if text in f.read():
                return True
        if proc.poll() is not None:
            return False
        time.sleep(0.02)
    return False


def wait_for_process(mark, text, limit_s=30):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if any(text in p for p in marked(mark)):
            return True
        time.sleep(0.05)
    return False


def run_case(c):
    name = c["name"]
    run_dir = os.path.join(work, name)
    scenario = {"schema_version": 1, "name": "sigint", "plugins": [c["plugin"]], "repetitions": 1, "order": "fixed",
                "phases": [{"name": "main", "steps": c["steps"]}]}
    scenario.update({k: v for k, v in c["scenario"].items() if k in ("backend",)})
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    log = os.path.join(work, name + ".log")
    env = dict(os.environ, STAND_SIGINT_MARK=name)
    with open(log, "w") as out:
        proc = subprocess.Popen([stand, "run", path, "--run-dir", run_dir, "--plugin-path", fixtures,
                                 "--plugin-path", plugins], stdout=out, stderr=subprocess.STDOUT, env=env)
    problems = []
    if c["after"] and not wait_for_line(log, c["after"], proc):
        problems.append(f"the step never got under way (no '{c['after']}' in the output)")
    wanted = c["scenario"].get("wait_for_process")
    if wanted and not wait_for_process(name, wanted):
        problems.append(f"no process '{wanted}' showed up")
    time.sleep(0.4)  # well inside the step
    if proc.poll() is not None:
        problems.append(f"the run ended before the signal (exit {proc.returncode})")
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
        problems.append("still running 10 s after SIGINT (killed)")
    took = time.monotonic() - t0
    if code != 130:
        problems.append(f"exit {code}, expected 130")
    if took > GRACE_S:
        problems.append(f"exited {took:.2f} s after SIGINT, more than {GRACE_S} s")
    left = marked(name)
    if left:
        problems.append("left running: " + "; ".join(left))
        for p in left:
            try:
                os.kill(int(p.split()[0]), signal.SIGKILL)
            except OSError:
                pass
    reps = [f for f in os.listdir(os.path.join(run_dir, "reps"))] if os.path.isdir(os.path.join(run_dir, "reps")) else []
    status = reason = None
    for r in reps:
        with open(os.path.join(run_dir, "reps", r)) as f:
            rep = json.load(f)
        status, reason = rep.get("status"), rep.get("reason")
    if status != "interrupted":
        problems.append(f"the repetition is {status!r} ({reason}), expected 'interrupted'")
    if problems:
        with open(log, errors="replace") as f:
            tail = f.read()[-1500:]
        failures.append(f"{name}: " + "; ".join(problems) + "\n    output: " + tail.replace("\n", "\n    "))
        print(f"FAIL {name}: {'; '.join(problems)}")
    else:
        print(f"ok   {name}: exit 130 {took:.2f} s after SIGINT, nothing left, rep interrupted ({reason})")


try:
    if group == "steps":
        start_helper([stand, "backend", "--listen", BACKEND, "--control", BACKEND_CONTROL],
                     lambda t: '"listen"' in t)
        cases = step_cases()
        check_coverage(cases)
    elif group == "sysprobe":
        cases = sysprobe_cases()
    elif group == "create":
        cases = create_cases()
    else:
        raise SystemExit(f"unknown group {group!r}")
    for c in cases:
        run_case(c)
finally:
    for h in helpers:
        h.terminate()
        h.wait()
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print("\n" + "\n".join(failures))
    sys.exit(1)
print(f"ok: {len(cases)} cases")
