#!/usr/bin/env python3
"""Debian's real Prometheus scrapes `stand run --metrics-listen 127.0.0.1:0`
during a short run (two repetitions of a 4 s open load at 200/s against
`stand backend`, which fixture-command runs in the measured box), and the
series it stored are checked through its HTTP API against the run: the
repetitions planned, each repetition's completed and error counters against
loads.<step>.requests of its entry in results.json, the step's name in the
labels, the offered rate, the box's memory. A scrape taken during the load passes
`promtool check metrics`, and the OpenMetrics one ends with # EOF.

usage: check_prometheus.py STAND FIXTURES

Every port is one the system gave for port 0 (the backend's and
Prometheus's: given, then passed on). Every process started here
dies with this script (PR_SET_PDEATHSIG) and is ended on any exit; every wait
has a deadline. Exit 77 (skip) without prometheus or promtool.
"""
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

stand, fixtures = sys.argv[1:3]
STEP = "steady"
RATE = 200
REPS = 2
children = []
failures = []


def die_with_parent():
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start(args, log):
    with open(log, "w") as out:
        p = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
    children.append(p)
    return p


def wait_for(what, predicate, limit_s, proc=None):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"FAIL: waiting for {what}: the process ended (exit {proc.returncode})")
        time.sleep(0.1)
    raise SystemExit(f"FAIL: no {what} within {limit_s} s")


def line_matching(path, prefix):
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith(prefix):
                    return line.strip()
    except FileNotFoundError:
        pass
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, accept=None, timeout=5):
    request = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(request, timeout=timeout) as r:
        return r.headers.get("Content-Type"), r.read().decode()


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message)
    if not ok:
        failures.append(message)


def start_prometheus(work, targets_file):
    port = free_port()
    config = os.path.join(work, "prometheus.yml")
    with open(config, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"
                "scrape_configs:\n  - job_name: stand\n    file_sd_configs:\n"
                f"      - files: ['{targets_file}']\n        refresh_interval: 1s\n")
    log = os.path.join(work, "prometheus.log")
    proc = start(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={work}/tsdb",
                  f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"], log)
    api = f"http://127.0.0.1:{port}"

    def ready():
        try:
            return http_get(api + "/-/ready", timeout=1)[1] is not None
        except OSError:
            return False

    wait_for("Prometheus ready on " + api + " (" + log + ")", ready, 60, proc)
    return api


def scenario_file(work):
    """The scenario, and the port of the backend it runs in the measured box as its system."""
    port = free_port()
    scenario = {
        "schema_version": 1, "name": "live-metrics", "repetitions": REPS, "order": "fixed",
        "sample_interval_ms": 250,
        "plugins": [{"id": "fixture-command", "config": {
            "argv": [stand, "backend", "--listen", f"127.0.0.1:{port}", "--control", "127.0.0.1:0"],
            "ready_url": f"http://127.0.0.1:{port}/"}}],
        # The sleep lets Prometheus find the listener before the load.
        "phases": [{"name": "main", "steps": [
            {"step": "start"}, {"step": "wait_ready"},
            {"step": "sleep", "name": "settle", "duration_s": 2},
            {"step": "load", "name": STEP, "duration_s": 4, "connections": 4, "rate": RATE,
             "urls": [f"http://127.0.0.1:{port}/"]},
            {"step": "idle", "name": "after", "duration_s": 3},
            {"step": "stop"}]}],
    }
    path = os.path.join(work, "scenario.json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    return path


def lint_scrapes_during_the_load(url, work):
    """Waits for the load and checks one scrape of each format."""
    def loading():
        try:
            text = http_get(url)[1]
        except OSError:
            return None
        return text if f'stand_load_running{{plugin="fixture-command",repetition="1",step="{STEP}"}} 1' in text else None

    text = wait_for("a scrape during the load", loading, 60)
    scrape = os.path.join(work, "scrape.txt")
    with open(scrape, "w") as f:
        f.write(text)
    lint = subprocess.run(["promtool", "check", "metrics"], stdin=open(scrape),
                          capture_output=True, text=True, timeout=30)
    check(lint.returncode == 0, f"promtool check metrics passes on a scrape during the load ({lint.stdout}{lint.stderr})")
    kind, open_text = http_get(url, "application/openmetrics-text;version=1.0.0")
    check(kind == "application/openmetrics-text; version=1.0.0; charset=utf-8", f"OpenMetrics content type ({kind})")
    check(open_text.endswith("# EOF\n") and "# UNIT stand_load_latency_seconds seconds" in open_text,
          "the OpenMetrics scrape has # UNIT and ends with # EOF")


def query(api, expr):
    url = api + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    body = json.loads(http_get(url)[1])
    if body.get("status") != "success":
        raise SystemExit(f"FAIL: {expr}: {body}")
    return {json.dumps(r["metric"], sort_keys=True): float(r["value"][1]) for r in body["data"]["result"]}


def one(api, expr):
    values = list(query(api, expr).values())
    return values[0] if len(values) == 1 else None


def check_series(api, run_dir):
    last = "[10m]"
    check(one(api, 'max_over_time(up{job="stand"}' + last + ')') == 1, "Prometheus scraped the listener (up == 1)")
    check(one(api, "max_over_time(stand_run_repetitions_planned" + last + ")") == REPS,
          f"stand_run_repetitions_planned is {REPS}")
    check(one(api, "max(max_over_time(stand_run_repetition" + last + "))") == REPS,
          f"stand_run_repetition reached {REPS}")
    ok = one(api, 'max_over_time(stand_run_repetitions_finished_total{status="ok"}' + last + ")")
    check(ok is not None and 1 <= ok <= REPS, f"repetitions finished ok counted ({ok})")
    check(one(api, 'max_over_time(stand_run_repetitions_finished_total{status="failed"}' + last + ")") == 0,
          "no repetition counted failed")
    check(one(api, f'count(last_over_time(stand_step_info{{step="{STEP}",kind="load",phase="main"}}{last}))') == REPS,
          f"stand_step_info named the step {STEP} (kind load) in each repetition")
    memory = one(api, "max_over_time(stand_box_memory_bytes" + last + ")")
    check(memory is not None and memory > 0, f"the box's memory is above 0 ({memory})")
    check(one(api, "max_over_time(stand_box_cpu_cores" + last + ")") is not None, "the box's CPU was seen")
    with open(os.path.join(run_dir, "results.json")) as f:
        results = json.load(f)
    for rep in range(1, REPS + 1):
        load = results_requests(results, rep)
        labels = f'{{plugin="fixture-command",repetition="{rep}",step="{STEP}"}}'
        completed = one(api, f"last_over_time(stand_load_completed_total{labels}{last})")
        check(completed == load["completed"] and completed > 0,
              f"r{rep}: stand_load_completed_total ends at results.json loads.{STEP}.requests.completed ({completed} vs {load['completed']})")
        check(one(api, f"last_over_time(stand_load_errors_total{labels}{last})") == load["errors"],
              f"r{rep}: stand_load_errors_total ends at results.json loads.{STEP}.requests.errors ({load['errors']})")
        check(one(api, f"last_over_time(stand_load_latency_seconds_count{labels}{last})") == load["completed"],
              f"r{rep}: the latency summary's _count ends at the completed count")
        check(one(api, f"last_over_time(stand_load_offered_rate{labels}{last})") == RATE, f"r{rep}: offered rate {RATE}")
        achieved = one(api, f"max_over_time(stand_load_achieved_rate{labels}{last})")
        check(achieved is not None and RATE * 0.5 <= achieved <= RATE * 1.5, f"r{rep}: achieved rate near {RATE} ({achieved})")
        check(one(api, f"last_over_time(stand_load_running{labels}{last})") == 0, f"r{rep}: the load ended (running 0)")


def results_requests(results, rep):
    """loads.<step>.requests of repetition `rep` in results.json."""
    for entry in results["reps"]:
        if entry["rep"] == rep and entry["plugin"] == "fixture-command":
            return entry["loads"][STEP]["requests"]
    raise SystemExit(f"FAIL: results.json has no repetition {rep}")


def main():
    if not shutil.which("prometheus") or not shutil.which("promtool"):
        print("SKIP: no prometheus or promtool (Debian package prometheus)")
        return 77
    work = tempfile.mkdtemp(prefix="stand-live-metrics.")
    try:
        targets = os.path.join(work, "targets.json")
        api = start_prometheus(work, targets)
        run_dir = os.path.join(work, "run")
        run_log = os.path.join(work, "run.log")
        run = start([stand, "run", scenario_file(work), "--run-dir", run_dir,
                     "--plugin-path", fixtures, "--metrics-listen", "127.0.0.1:0"], run_log)
        said = wait_for("the metrics URL on stderr", lambda: line_matching(run_log, "stand: metrics: http://"), 30, run)
        url = said.split(" ")[-1]
        address = url.split("/")[2]
        with open(targets + ".tmp", "w") as f:
            json.dump([{"targets": [address]}], f)
        os.rename(targets + ".tmp", targets)
        lint_scrapes_during_the_load(url, work)
        code = run.wait(timeout=120)
        check(code == 0, f"the run exited 0 ({code})")
        if code != 0:
            print(open(run_log, errors="replace").read()[-3000:])
        time.sleep(2)  # the last scrapes are in the head block
        check_series(api, run_dir)
        return 1 if failures else 0
    finally:
        for p in children:
            if p.poll() is None:
                p.terminate()
        for p in children:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if os.environ.get("STAND_KEEP_WORK"):
            print("kept: " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # ctest's timeout: the finally block still runs
    sys.exit(main())
