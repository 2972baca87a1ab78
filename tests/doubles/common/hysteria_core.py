"""A double's Hysteria 2 core (test infrastructure only, stdlib only).

A panel double hands a Hysteria 2 inbound to this instead of a real core:
tests/hysteria2-server (the real apernet/hysteria server library, built as
build/tests/hy2server) on the inbound's UDP port with the inbound's
certificate. The double keeps the core's users equal to the inbound's enabled
clients (sync) and reads each user's proxied bytes from it (traffic). As the
library asks for a credential once per connection, a removed user's new
connections are refused while its established ones go on carrying data, as
Xray under the real 3x-ui v3.6.0 was measured to do.

The core dies with the double (PR_SET_PDEATHSIG) and its counts with the
core: the double folds them into its own persisted totals (Totals).
"""

import ctypes
import json
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

READY_WAIT_S = 10
PR_SET_PDEATHSIG = 1


def _die_with_parent():
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class HysteriaCore:
    """One tests/hysteria2-server process serving one inbound."""

    def __init__(self, binary, host, port, cert_file, key_file, obfs_password=""):
        argv = [binary, "--listen", "%s:%d" % (host, port), "--control", "127.0.0.1:0",
                "--cert", cert_file, "--key", key_file]
        if obfs_password:
            argv += ["--obfs-password", obfs_password]
        self.users = set()
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=sys.stderr, text=True,
                                     preexec_fn=_die_with_parent)
        self.control = self._wait_ready()

    def _wait_ready(self):
        deadline = time.monotonic() + READY_WAIT_S
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("ready "):
                fields = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
                return "http://" + fields["control"]
        self.close()
        raise RuntimeError("the Hysteria 2 core did not start (exit %s)" % self.proc.poll())

    def _call(self, method, path):
        req = urllib.request.Request(self.control + path, method=method)
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.read()

    def sync(self, auths):
        """Makes the core's users exactly `auths`."""
        wanted = set(a for a in auths if a)
        for a in sorted(wanted - self.users):
            self._call("PUT", "/users/" + urllib.parse.quote(a, safe=""))
        for a in sorted(self.users - wanted):
            self._call("DELETE", "/users/" + urllib.parse.quote(a, safe=""))
        self.users = wanted

    def traffic(self):
        """{auth: (up, down)}: each user's proxied bytes since the core started."""
        raw = json.loads(self._call("GET", "/traffic") or b"{}")
        return {a: (int(t.get("tx", 0)), int(t.get("rx", 0))) for a, t in raw.items()}

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Totals:
    """Per-user (up, down) totals that outlive core restarts, kept in the
    double's persisted state: each read adds what the core counted since the
    last one."""

    def __init__(self, state):
        self.saved = state.setdefault("hysteria_traffic", {})  # key -> [up, down]
        self.seen = {}                                          # (core id, auth) -> (up, down)

    def fold(self, core_id, key_of_auth, counts):
        for auth, (up, down) in counts.items():
            key = key_of_auth.get(auth)
            if key is None:
                continue
            last_up, last_down = self.seen.get((core_id, auth), (0, 0))
            total = self.saved.setdefault(key, [0, 0])
            total[0] += up - last_up
            total[1] += down - last_down
            self.seen[(core_id, auth)] = (up, down)

    def of(self, key):
        up, down = self.saved.get(key, [0, 0])
        return up, down


class Cores:
    """The cores of a double's Hysteria 2 inbounds, kept equal to a spec:
    {inbound key: (host, port, cert_file, key_file, obfs_password, {auth: user key})}.
    An inbound whose core cannot start is logged to stderr, as a core logs a
    failed inbound, and the panel goes on."""

    def __init__(self, binary, state):
        self.binary = binary
        self.running = {}  # inbound key -> (endpoint tuple, HysteriaCore)
        self.users = {}    # inbound key -> {auth: user key}
        self.totals = Totals(state)

    def sync(self, spec):
        for key in list(self.running):
            endpoint, core = self.running[key]
            if key not in spec or spec[key][:5] != endpoint:
                self._fold(key)
                core.close()
                del self.running[key]
        for key, (host, port, cert, pkey, obfs, users) in spec.items():
            if key not in self.running:
                try:
                    self.running[key] = ((host, port, cert, pkey, obfs), HysteriaCore(self.binary, host, port, cert, pkey, obfs))
                except (OSError, RuntimeError) as e:
                    print("hysteria inbound %s:%d: %s" % (host, port, e), file=sys.stderr, flush=True)
                    continue
            self._fold(key)
            self.users[key] = dict(users)
            self.running[key][1].sync(users.keys())

    def _fold(self, key):
        if key in self.running:
            try:
                self.totals.fold(key, self.users.get(key, {}), self.running[key][1].traffic())
            except OSError as e:
                print("hysteria inbound %s: traffic: %s" % (key, e), file=sys.stderr, flush=True)

    def traffic_of(self, user_key):
        """(up, down) of a user over every core, restarts included."""
        for key in self.running:
            self._fold(key)
        return self.totals.of(user_key)

    def close(self):
        for _, core in self.running.values():
            core.close()
        self.running.clear()
