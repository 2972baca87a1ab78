"""Walks the flows a plugin takes against the Mistgate and 3x-ui doubles.

Run from the repo root:  python3 -m unittest tests/doubles/test_doubles.py -v
Each double runs as a subprocess on port 0 (the port is read from its first stdout line).
"""

import base64
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
MG = os.path.join(HERE, "mistgate", "mistgate_double.py")
MG_NODE = os.path.join(HERE, "mistgate", "mistgate_node_double.py")
XUI = os.path.join(HERE, "3x-ui", "xui_double.py")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "mistgate"))
from connect_wire import totp  # noqa: E402


class Double:
    """A double subprocess; .lines holds the stdout lines printed at start."""

    def __init__(self, script, args, nlines=1):
        self.script, self.args, self.nlines = script, list(args), nlines
        self.port = 0
        self.start()

    def start(self):
        self.proc = subprocess.Popen([sys.executable, self.script, "--port", str(self.port)] + self.args,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = [self.proc.stdout.readline().strip() for _ in range(self.nlines)]
        m = re.match(r"listening on 127\.0\.0\.1:(\d+)$", self.lines[0])
        if not m:
            self.stop()
            raise RuntimeError("bad first line %r: %s" % (self.lines[0], self.proc.stderr.read()))
        self.port = int(m.group(1))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(5)
        self.proc.stdout.close()
        self.proc.stderr.close()

    def restart(self):
        """kill + start with the same arguments and the same port(s)."""
        self.stop()
        self.args = [a for a in self.args]
        try:
            sub = self.port_of("sub")
            if "--sub-port" not in self.args:
                self.args += ["--sub-port", str(sub)]
        except KeyError:
            pass
        self.start()

    def port_of(self, name):
        for ln in self.lines:
            m = re.match(r"%s listening on 127\.0\.0\.1:(\d+)$" % name, ln)
            if m:
                return int(m.group(1))
        raise KeyError(name)


class Client:
    """Keep-alive-free HTTP client with a cookie jar (stores every Set-Cookie)."""

    def __init__(self, port, timeout=5):
        self.port, self.timeout, self.cookies, self.headers = port, timeout, {}, {}

    def req(self, method, path, body=None, headers=None, port=None, form=False):
        h = dict(self.headers)
        h.update(headers or {})
        data = None
        if body is not None:
            if form:
                data = urllib.parse.urlencode(body)
                h.setdefault("Content-Type", "application/x-www-form-urlencoded")
            else:
                data = json.dumps(body)
                h.setdefault("Content-Type", "application/json")
        if self.cookies:
            h["Cookie"] = "; ".join("%s=%s" % kv for kv in self.cookies.items())
        c = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=self.timeout)
        try:
            c.request(method, path, data, h)
            r = c.getresponse()
            raw = r.read()
            for k, v in r.getheaders():
                if k.lower() == "set-cookie":
                    n, val = v.split(";")[0].split("=", 1)
                    self.cookies[n.strip()] = val
            return r.status, dict(r.getheaders()), raw
        finally:
            c.close()

    def json(self, method, path, body=None, **kw):
        s, h, raw = self.req(method, path, body, **kw)
        return s, json.loads(raw) if raw else None


def stats(port):
    return Client(port).json("GET", "/__double/stats")[1]


def set_fault(port, fault, count=1, **kw):
    body = dict(fault=fault, count=count, **kw)
    s, r = Client(port).json("POST", "/__double/fault", body)
    assert s == 200, r


def next_totp(secret, step, last=[0]):
    """A code for a step newer than any code used before (codes are single use)."""
    while True:
        now = int(time.time()) // step
        if now > last[0]:
            last[0] = now
            return totp(secret, now)
        time.sleep(0.05)


def parse_hy2(link):
    u = urllib.parse.urlsplit(link)
    assert u.scheme == "hysteria2", link
    q = urllib.parse.parse_qs(u.query)
    return u, q


# --------------------------------------------------------------------------- Mistgate
PASSWORD = "bn-0123456789abcdef"


class MistgateTest(unittest.TestCase):
    STEP = 1

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mgdouble-")
        self.state = os.path.join(self.tmp, "state")
        self.doubles, self.agents = [], []

    def tearDown(self):
        for a in self.agents:
            if a.poll() is None:
                a.terminate()
            a.wait(5)
        for d in self.doubles:
            d.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start(self, *extra, setup_on_start=True):
        d = Double(MG, ["--state-dir", self.state, "--totp-step", str(self.STEP), "--stats-interval", "1",
                        "--capture", os.path.join(self.tmp, "capture.jsonl")]
                   + (["--setup-on-start"] if setup_on_start else []) + list(extra), nlines=2)
        self.doubles.append(d)
        self.admin_path = urllib.parse.urlsplit(re.search(r"Admin URL:\s+(\S+)", d.lines[1]).group(1)).path
        return d

    def setup_cmd(self, port, *extra):
        out = subprocess.run([sys.executable, MG, "setup", "--state-dir", self.state,
                              "--public-url", "http://127.0.0.1:%d" % port] + list(extra),
                             capture_output=True, text=True, check=True).stdout
        m = re.search(r"Setup link:\s+\S+#(\S+)", out)
        return out, m.group(1) if m else None

    def rpc(self, c, method, body):
        return c.json("POST", self.admin_path + "api/mistgate.admin.v1." + method, body)

    def begin_setup(self, c, token):
        return self.rpc(c, "AuthService/BeginSetup", {
            "setupToken": token, "displayName": "Bench owner", "method": "SETUP_METHOD_PASSWORD",
            "login": "benchowner", "password": PASSWORD})

    def owner(self, d, token=None):
        if token is None:
            token = re.search(r"Setup link:\s+\S+#(\S+)", d.proc.stdout.readline()).group(1)
        c = Client(d.port)
        s, r = self.begin_setup(c, token)
        self.assertEqual(s, 200, r)
        self.secret = r["totpSecret"]
        s, r = self.rpc(c, "AuthService/FinishSetup", {"setupToken": token, "ceremonyId": r["ceremonyId"],
                                                      "totpCode": next_totp(self.secret, self.STEP)})
        self.assertEqual(s, 200, r)
        self.assertIn("__Host-sid", c.cookies)
        self.assertEqual(r["admin"]["role"], "ROLE_OWNER")
        self.assertNotIn("login", r["admin"])  # Admin is {id, displayName, role}
        return c

    def bootstrap(self, d):
        """Owner, profile, enrollment, inbound, group: none of it asks for a step-up (policy.go)."""
        c = self.owner(d)
        s, r = self.rpc(c, "ProfileService/ListProtocols", {})
        proto = [p for p in r["protocols"] if p["id"] == "hysteria2"][0]
        settings = json.loads(proto["defaultSettingsJson"])
        settings["tls_mode"] = "self_signed"
        s, r = self.rpc(c, "ProfileService/CreateProfile",
                        {"protocol": "hysteria2", "name": "main", "settingsJson": json.dumps(settings)})
        self.assertEqual(s, 200, r)
        pid = r["profile"]["id"]
        self.assertTrue(pid.startswith("prf_"))
        s, r = self.rpc(c, "NodeService/CreateEnrollment",
                        {"name": "bench1", "address": "203.0.113.10", "countryCode": "DE"})
        self.assertEqual(s, 200, r)
        self.assertEqual(r["node"]["status"], "NODE_STATUS_PENDING")
        self.install = dict(re.findall(r"--(panel|sni|ca-sha256|token) (\S+)", r["installCommand"]))
        self.assertEqual(set(self.install), {"panel", "sni", "ca-sha256", "token"})
        self.assertEqual(r["caFingerprint"], "sha256:" + self.install["ca-sha256"])
        self.node_id = r["node"]["id"]
        s, r = self.rpc(c, "ProfileService/CreateInbound", {"profileId": pid, "nodeId": self.node_id})
        self.assertEqual(s, 200, r)
        s, r = self.rpc(c, "GroupService/CreateGroup", {"name": "everyone", "profileIds": [pid]})
        self.assertEqual(s, 200, r)
        return c, r["group"]["id"]

    def node(self, *args):
        return subprocess.run([sys.executable, MG_NODE] + list(args), capture_output=True, text=True)

    def enroll_and_run(self):
        state = os.path.join(self.tmp, "node")
        i = self.install
        r = self.node("enroll", "--panel", i["panel"], "--sni", i["sni"], "--ca-sha256", i["ca-sha256"],
                      "--token", i["token"], "--state-dir", state)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("enrolled as %s" % self.node_id, r.stdout)
        a = subprocess.Popen([sys.executable, MG_NODE, "run", "--state-dir", state],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.agents.append(a)
        return state

    def login(self, port):
        c = Client(port)
        s, r = self.rpc(c, "AuthService/PasswordLogin", {"login": "benchowner", "password": PASSWORD,
                                                        "totpCode": next_totp(self.secret, self.STEP)})
        self.assertEqual(s, 200, r)
        return c

    def fetch(self, port, path):
        return Client(port).req("GET", path, headers={"User-Agent": "v2rayN/7.5.0"})

    def wait_lines(self, port, path, timeout=10):
        until = time.time() + timeout
        while time.time() < until:
            s, h, body = self.fetch(port, path)
            if s == 200 and body:
                return base64.b64decode(body).decode().split("\n")
            time.sleep(0.2)
        self.fail("the subscription %s stayed empty" % path)

    def test_full_flow(self):
        d = self.start("--sub-cache-seconds", "0", "--sub-max-per-hour", "5")
        s, h, body = Client(d.port).req("GET", "/")
        self.assertEqual(s, 200)
        self.assertIn(b"Coming soon", body)
        c, gid = self.bootstrap(d)
        users = {}
        for i in (1, 2, 3):
            s, r = self.rpc(c, "UserService/CreateUser", {"name": "user%d" % i, "groupId": gid})
            self.assertEqual(s, 200, r)
            self.assertTrue(r["user"]["id"].startswith("usr_"))
            u = urllib.parse.urlsplit(r["subscriptionUrl"])
            self.assertEqual(u.scheme, "http")  # absolute URL
            users["user%d" % i] = (r["user"]["id"], u.path)
        # no agent yet: 200 with an empty body (sub.go: no line before the node reported its pin)
        s, h, body = self.fetch(d.port, users["user1"][1])
        self.assertEqual((s, body), (200, b""))
        self.enroll_and_run()
        for name, (_, path) in users.items():
            lines = self.wait_lines(d.port, path)
            self.assertEqual(len(lines), 1)
            u, q = parse_hy2(lines[0])
            self.assertEqual((u.hostname, u.port), ("203.0.113.10", 443))
            self.assertTrue(u.username)
            self.assertEqual(len(q["pinSHA256"][0]), 64)
        s, h, _ = self.fetch(d.port, users["user3"][1])
        self.assertEqual(h["Content-Type"], "text/plain; charset=utf-8")
        self.assertIn("Subscription-Userinfo", h)
        # duplicate name (case-insensitive) -> Connect already_exists "name_taken" / 409
        s, r = self.rpc(c, "UserService/CreateUser", {"name": "USER1", "groupId": gid})
        self.assertEqual((s, r["code"], r["message"]), (409, "already_exists", "name_taken"))
        # per-link cap: 5 per window; user1 was fetched twice (empty, then with a line) at most a few times
        p1 = users["user1"][1]
        codes = [self.fetch(d.port, p1)[0] for _ in range(6)]
        self.assertEqual(codes[-1], 429)
        # delete user2 -> its link gets the decoy 404; an unknown id is no error
        s, r = self.rpc(c, "UserService/DeleteUsers", {"userIds": [users["user2"][0]]})
        self.assertEqual((s, r), (200, {}))
        s, r = self.rpc(c, "UserService/DeleteUsers", {"userIds": ["usr_unknown"]})
        self.assertEqual((s, r), (200, {}))
        s, h, body = self.fetch(d.port, users["user2"][1])
        self.assertEqual(s, 404)
        self.assertIn(b"Not Found", body)
        # wrong password -> unauthenticated with SignInFailure detail
        s, r = self.rpc(Client(d.port), "AuthService/PasswordLogin",
                        {"login": "benchowner", "password": "wrong-password-x", "totpCode": "000000"})
        self.assertEqual((s, r["code"]), (401, "unauthenticated"))
        self.assertEqual(r["details"][0]["debug"]["attemptsLeft"], 4)
        # restart with the same state dir: users and the session kept (sessions live in the database)
        d.restart()
        s, r = self.rpc(c, "UserService/ListUsers", {"pageSize": 50})
        self.assertEqual(s, 200, r)
        self.assertEqual(sorted(u["name"] for u in r["users"]), ["user1", "user3"])
        self.assertEqual(self.wait_lines(d.port, users["user3"][1])[0][:12], "hysteria2://")
        self.assertEqual(self.fetch(d.port, users["user2"][1])[0], 404)
        self.assertEqual(stats(d.port)["requests"]["UserService/ListUsers"], 1)
        with open(os.path.join(self.tmp, "capture.jsonl")) as f:
            cap = [json.loads(x) for x in f]
        self.assertTrue(any(x["path"].endswith("UserService/CreateUser") and '"user1"' in x["body"] for x in cap))

    def test_user_switch_quota_traffic(self):
        """user_rpc.go at 695c839: SetUsersEnabled {userIds, enabled} answers the known users (unknown ids are no
        error), DISABLED empties the subscription (sub.go) until enabled again; UpdateUser's quotaBytes as protojson
        writes a uint64 (digits) or a number, 0 unlimited, in Subscription-Userinfo's total; GetUser's user.usedBytes
        left out (0: the double carries no traffic); not_found for no such user."""
        d = self.start("--sub-cache-seconds", "0")
        c, gid = self.bootstrap(d)
        self.enroll_and_run()
        s, r = self.rpc(c, "UserService/CreateUser", {"name": "switch1", "groupId": gid})
        uid, path = r["user"]["id"], urllib.parse.urlsplit(r["subscriptionUrl"]).path
        self.assertEqual(len(self.wait_lines(d.port, path)), 1)
        s, r = self.rpc(c, "UserService/SetUsersEnabled", {"userIds": [uid, "usr_unknown"], "enabled": False})
        self.assertEqual((s, [(u["id"], u["status"]) for u in r["users"]]), (200, [(uid, "USER_STATUS_DISABLED")]))
        self.assertEqual(self.fetch(d.port, path)[::2], (200, b""))
        s, r = self.rpc(c, "UserService/SetUsersEnabled", {"userIds": [uid], "enabled": True})
        self.assertEqual(r["users"][0]["status"], "USER_STATUS_ACTIVE")
        self.assertEqual(len(self.wait_lines(d.port, path)), 1)
        self.assertEqual(self.rpc(c, "UserService/SetUsersEnabled", {"userIds": ["usr_unknown"], "enabled": True}),
                         (200, {}))
        self.assertEqual(self.rpc(c, "UserService/SetUsersEnabled", {"enabled": True})[1]["message"], "no users given")
        s, r = self.rpc(c, "UserService/UpdateUser", {"userId": uid, "quotaBytes": "1073741824"})
        self.assertEqual((s, r["user"]["quotaBytes"], r["user"]["status"]), (200, "1073741824", "USER_STATUS_ACTIVE"))
        self.assertIn("total=1073741824;", self.fetch(d.port, path)[1]["Subscription-Userinfo"])
        s, r = self.rpc(c, "UserService/UpdateUser", {"userId": uid, "quotaBytes": 0})
        self.assertEqual((s, "quotaBytes" in r["user"]), (200, False))
        for bad in ({"userId": uid, "quotaBytes": "-1"}, {"userId": uid, "quotaBytes": 1.5},
                    {"userId": uid, "name": "renamed"}):
            self.assertEqual(self.rpc(c, "UserService/UpdateUser", bad)[1]["code"], "invalid_argument", bad)
        s, r = self.rpc(c, "UserService/GetUser", {"userId": uid})
        self.assertEqual((s, r["user"]["id"], "usedBytes" in r["user"], len(r["dailyTraffic"])), (200, uid, False, 14))
        self.assertEqual([p["protocol"] for p in r["profiles"]], ["hysteria2"])
        for method in ("GetUser", "UpdateUser"):
            s, r = self.rpc(c, "UserService/" + method, {"userId": "usr_unknown", "quotaBytes": "1"}
                            if method == "UpdateUser" else {"userId": "usr_unknown"})
            self.assertEqual((s, r["code"], r["message"]), (404, "not_found", "user not found"))

    def test_step_up(self):
        d = self.start("--stepup-seconds", "1")
        c = self.owner(d)
        s, r = self.rpc(c, "AuthService/EndOtherSessions", {})
        self.assertEqual((s, r), (200, {}))  # signing in counts as a step-up
        time.sleep(1.2)
        s, r = self.rpc(c, "AuthService/EndOtherSessions", {})
        self.assertEqual((s, r["code"]), (403, "permission_denied"))
        self.assertEqual(r["details"][0]["type"], "mistgate.admin.v1.StepUpRequired")
        self.assertEqual(r["details"][0]["debug"], {"totp": True})
        self.assertEqual(self.rpc(c, "UserService/ListUsers", {})[0], 200)  # a call that needs none
        s, r = self.rpc(c, "AuthService/FinishStepUp", {"totpCode": next_totp(self.secret, self.STEP)})
        self.assertEqual(s, 200, r)
        self.assertGreater(int(r["stepUpUntilUnix"]), time.time())
        self.assertEqual(self.rpc(c, "AuthService/EndOtherSessions", {})[0], 200)
        # a used code is "step-up failed" (401); five failures lock step-up, then 429
        used = totp(self.secret, int(time.time()) // self.STEP)
        for _ in range(5):
            s, r = self.rpc(c, "AuthService/FinishStepUp", {"totpCode": used})
            self.assertEqual((s, r["code"], r["message"]), (401, "unauthenticated", "step-up failed"))
        s, r = self.rpc(c, "AuthService/FinishStepUp", {"totpCode": next_totp(self.secret, self.STEP)})
        self.assertEqual((s, r["code"]), (429, "resource_exhausted"))
        self.assertEqual(self.rpc(c, "AuthService/Me", {})[0], 200)  # still signed in
        self.assertEqual(self.rpc(Client(d.port), "AuthService/Me", {})[1],
                         {"code": "unauthenticated", "message": "not signed in"})

    def test_setup_rerun(self):
        d = self.start("--setup-ttl", "1", setup_on_start=False)
        out, token = self.setup_cmd(d.port, "--setup-ttl", "1")
        self.assertIn("Already configured", out)
        time.sleep(1.2)
        s, r = self.begin_setup(Client(d.port), token)
        self.assertEqual((s, r["code"]), (403, "permission_denied"))  # expired
        _, token = self.setup_cmd(d.port)  # re-run while no owner exists: a fresh link
        self.owner(d, token)
        out, token = self.setup_cmd(d.port)
        self.assertIsNone(token)
        self.assertIn("An admin already exists; no setup link issued.", out)

    def test_node_agent(self):
        d = self.start("--sub-cache-seconds", "0")  # the 10 s render cache would keep an early empty answer
        c, gid = self.bootstrap(d)
        i = self.install
        r = self.node("run", "--state-dir", os.path.join(self.tmp, "node"))
        self.assertEqual(r.returncode, 78)  # not enrolled
        state = self.enroll_and_run()
        r = self.node("enroll", "--panel", i["panel"], "--sni", i["sni"], "--ca-sha256", i["ca-sha256"],
                      "--token", i["token"], "--state-dir", state, "--force")
        self.assertEqual(r.returncode, 1)
        self.assertIn("enrollment token unknown, expired or used", r.stderr)
        s, r = self.rpc(c, "UserService/CreateUser", {"name": "late", "groupId": gid})
        self.assertEqual(len(self.wait_lines(d.port, urllib.parse.urlsplit(r["subscriptionUrl"]).path)), 1)
        s, r = self.rpc(c, "NodeService/CreateEnrollment", {"nodeId": self.node_id})  # re-enrollment
        self.assertEqual((s, r["node"]["status"]), (200, "NODE_STATUS_ONLINE"))
        token = re.search(r"--token (\S+)", r["installCommand"]).group(1)
        r = self.node("enroll", "--panel", i["panel"], "--sni", i["sni"], "--ca-sha256", "0" * 64,
                      "--token", token, "--state-dir", os.path.join(self.tmp, "bad"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("does not match --ca-sha256", r.stderr)
        s, h, body = Client(d.port).req("POST", "/mistgate.agent.v1.EnrollmentService/Enroll", {})
        self.assertEqual(s, 404)  # without the secret SNI the agent endpoint is the decoy

    def test_admin_rate_limit(self):
        d = self.start("--admin-rate", "0.5", "--admin-burst", "5")
        c = Client(d.port)
        codes = [self.rpc(c, "AuthService/Me", {})[0] for _ in range(5)]
        self.assertEqual(codes, [401] * 5)
        s, h, body = c.req("POST", self.admin_path + "api/mistgate.admin.v1.AuthService/Me", {})
        self.assertEqual(s, 429)
        self.assertGreaterEqual(int(h["Retry-After"]), 1)
        self.assertIn(b"Too Many Requests", body)
        self.assertEqual(stats(d.port)["rate_limited_429"], 1)

    def test_faults(self):
        d = self.start("--fault", "500", "--fault-count", "1", "--slow-seconds", "1.5")
        run_fault_checks(self, d.port, lambda c: c.req("POST", self.admin_path + "api/mistgate.admin.v1.AuthService/Me", {}))
        # 401-after-restart: a logged-in session is dropped for the next admin call
        c, gid = self.bootstrap(d)
        self.assertEqual(self.rpc(c, "UserService/ListUsers", {})[0], 200)
        set_fault(d.port, "401-after-restart", 1)
        s, r = self.rpc(c, "UserService/ListUsers", {})
        self.assertEqual((s, r["code"]), (401, "unauthenticated"))
        c2 = self.login(d.port)
        self.assertEqual(self.rpc(c2, "UserService/ListUsers", {})[0], 200)


def run_fault_checks(tc, port, call):
    """Shared checks: command-line 500 (count 1), then garbage, reset, slow at runtime."""
    c = Client(port, timeout=0.5)
    s, h, body = call(c)
    tc.assertEqual(s, 500)
    s, h, body = call(c)
    tc.assertNotEqual(s, 500)  # count 1 was used up
    set_fault(port, "garbage", 1)
    s, h, body = call(c)
    tc.assertEqual(s, 200)
    with tc.assertRaises(ValueError):
        json.loads(body)
    set_fault(port, "reset", 1)
    with tc.assertRaises((ConnectionError, http.client.RemoteDisconnected, OSError)):
        call(c)
    set_fault(port, "slow", 1, slow_seconds=1.5)
    with tc.assertRaises((socket.timeout, TimeoutError)):
        call(c)
    set_fault(port, "none")
    s, h, body = call(Client(port, timeout=5))
    tc.assertNotEqual(s, 500)
    st = stats(port)
    for k in ("500", "garbage", "reset", "slow"):
        tc.assertEqual(st["faults_injected"][k], 1, st)


# ----------------------------------------------------------------------------- 3x-ui
class XuiTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xuidouble-")
        self.doubles = []

    def tearDown(self):
        for d in self.doubles:
            d.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start(self, *extra):
        d = Double(XUI, ["--state-dir", os.path.join(self.tmp, "state")] + list(extra), nlines=2)
        self.doubles.append(d)
        d.sub_port = d.port_of("sub")
        return d

    def login(self, d, base="/", password="admin"):
        c = Client(d.port)
        s, r = c.json("GET", base + "csrf-token")
        self.assertEqual(s, 200)
        self.assertTrue(r["success"])
        s, r = c.json("POST", base + "login", {"username": "admin", "password": password},
                      headers={"X-CSRF-Token": r["obj"]})
        self.assertEqual(s, 200)
        if r["success"]:
            s, t = c.json("GET", base + "csrf-token")
            c.headers["X-CSRF-Token"] = t["obj"]
        return c, r

    def reality_inbound(self, c, base, legacy):
        s, r = c.json("GET", base + "panel/api/server/getNewX25519Cert")
        keys = r["obj"]
        settings = {"clients": [], "decryption": "none", "fallbacks": []}
        stream = {"network": "tcp", "security": "reality", "realitySettings": {
            "show": False, "xver": 0, "target": "www.cloudflare.com:443", "serverNames": ["www.cloudflare.com"],
            "privateKey": keys["privateKey"], "shortIds": ["0123456789abcdef"],
            "settings": {"publicKey": keys["publicKey"], "fingerprint": "chrome", "spiderX": "/"}}}
        sniff = {"enabled": True, "destOverride": ["http", "tls", "quic"]}
        body = {"enable": True, "remark": "bench", "listen": "", "port": 4443, "protocol": "vless",
                "expiryTime": 0, "total": 0, "settings": settings, "streamSettings": stream, "sniffing": sniff}
        if legacy:
            body.update(settings=json.dumps(settings), streamSettings=json.dumps(stream),
                        sniffing=json.dumps(sniff))
        s, r = c.json("POST", base + "panel/api/inbounds/add", body)
        self.assertEqual(s, 200)
        self.assertTrue(r["success"], r)
        self.assertEqual(r["msg"], "Inbound has been successfully created.")
        return r["obj"]["id"], keys["publicKey"]

    def check_sub(self, d, path, email, pbk):
        s, h, body = Client(d.sub_port).req("GET", path, headers={"User-Agent": "v2rayN/7.5.0"})
        self.assertEqual(s, 200)
        self.assertEqual(h["Content-Type"], "text/plain; charset=utf-8")
        self.assertEqual(h["Profile-Update-Interval"], "12")
        text = base64.b64decode(body).decode()
        self.assertTrue(text.endswith("\n"))
        links = text.splitlines()
        self.assertEqual(len(links), 1)
        u = urllib.parse.urlsplit(links[0])
        q = urllib.parse.parse_qs(u.query)
        self.assertEqual((u.scheme, u.port, q["security"][0], q["pbk"][0]), ("vless", 4443, "reality", pbk))
        self.assertTrue(urllib.parse.unquote(u.fragment).endswith(email))

    def test_v31_full_flow(self):
        base = "/xpanel/"
        d = self.start("--api", "v3.1", "--web-base-path", base)
        s, h, body = Client(d.port).req("GET", base)
        self.assertEqual(s, 200)
        self.assertIn(b'name="csrf-token"', body)
        self.assertIn("3x-ui=", h["Set-Cookie"])
        self.assertEqual(Client(d.port).req("GET", "/xpanel")[0], 301)
        # login without CSRF token -> 403 empty; unauthenticated API -> 404 empty
        s, h, body = Client(d.port).req("POST", base + "login", {"username": "admin", "password": "admin"})
        self.assertEqual((s, body), (403, b""))
        self.assertEqual(Client(d.port).req("GET", base + "panel/api/clients/list")[:3:2], (404, b""))
        # wrong password -> HTTP 200 success:false
        _, r = self.login(d, base, password="nope")
        self.assertEqual(r, {"success": False, "msg": "Invalid username or password or two-factor code.",
                             "obj": None})
        c, r = self.login(d, base)
        self.assertTrue(r["success"])
        iid, pbk = self.reality_inbound(c, base, legacy=False)
        for i in (1, 2, 3):
            s, r = c.json("POST", base + "panel/api/clients/add", {
                "client": {"email": "user%d" % i, "enable": True, "totalGB": 0, "expiryTime": 0},
                "inboundIds": [iid]})
            self.assertEqual((s, r["success"], r["msg"]), (200, True, "Inbound client(s) have been added."))
        s, r = c.json("POST", base + "panel/api/clients/add", {"client": {"email": "user1"}, "inboundIds": [iid]})
        self.assertEqual((s, r), (200, {"success": False, "msg": "Something went wrong (email already in use: user1\n)",
                                        "obj": None}))
        s, r = c.json("POST", base + "panel/api/setting/all", {})
        sub_port, sub_path = r["obj"]["subPort"], r["obj"]["subPath"]
        self.assertEqual((sub_port, sub_path), (d.sub_port, "/sub/"))
        s, r = c.json("GET", base + "panel/api/clients/list")
        subs = {x["email"]: x["subId"] for x in r["obj"]}
        self.assertEqual(sorted(subs), ["user1", "user2", "user3"])
        for email, sid in subs.items():
            self.check_sub(d, sub_path + sid, email, pbk)
        s, r = c.json("POST", base + "panel/api/clients/del/user2", {})
        self.assertTrue(r["success"], r)
        self.assertEqual(Client(d.sub_port).req("GET", sub_path + subs["user2"])[:3:2], (404, b""))
        # v3.6.0's switch, quota and traffic (ABI 1.3 set_user_enabled, set_user_quota, user_traffic)
        s, r = c.json("POST", base + "panel/api/clients/bulkDisable", {"emails": ["user1", "nobody"]})
        self.assertEqual(r, {"success": True, "msg": "", "obj": {
            "changed": 1, "skipped": [{"email": "nobody", "reason": "client not found"}]}})
        s, r = c.json("GET", base + "panel/api/clients/get/user1")
        self.assertFalse(r["obj"]["client"]["enable"])
        s, r = c.json("POST", base + "panel/api/clients/bulkEnable", {"emails": ["user1"]})
        self.assertEqual(r["obj"], {"changed": 1})
        s, r = c.json("POST", base + "panel/api/clients/update/user1", {"email": "user1", "totalGB": 1, "enable": True})
        self.assertTrue(r["success"], r)
        s, r = c.json("GET", base + "panel/api/clients/traffic/user1")
        self.assertEqual((r["obj"]["up"], r["obj"]["down"], r["obj"]["total"], r["obj"]["enable"]), (0, 0, 1, True))
        s, r = c.json("GET", base + "panel/api/clients/traffic/nobody")
        self.assertEqual(r, {"success": True, "msg": "", "obj": None})
        s, r = c.json("POST", base + "panel/api/clients/update/nobody", {"email": "nobody"})
        self.assertFalse(r["success"])
        # restart: clients persist, session must log in again
        d.restart()
        d.sub_port = d.port_of("sub")
        s, h, body = c.req("GET", base + "panel/api/inbounds/list/slim")
        self.assertEqual(s, 404)
        c, _ = self.login(d, base)
        s, r = c.json("GET", base + "panel/api/clients/list")
        self.assertEqual(sorted(x["email"] for x in r["obj"]), ["user1", "user3"])
        self.check_sub(d, "/sub/" + subs["user3"], "user3", pbk)
        # POST without the CSRF header -> 403
        c.headers.pop("X-CSRF-Token")
        self.assertEqual(c.req("POST", base + "panel/api/setting/all", {})[0], 403)

    def test_legacy_flow_and_login_limiter(self):
        d = self.start("--api", "legacy")
        c, r = self.login(d)
        iid, pbk = self.reality_inbound(c, "/", legacy=True)
        s, r = c.json("GET", "/panel/api/inbounds/list")
        self.assertIsInstance(r["obj"][0]["settings"], str)
        self.assertEqual(c.req("POST", "/panel/api/clients/add", {})[0], 404)  # no v3.1 API
        for i in (1, 2, 3):
            cl = {"id": "b831381d-6324-4d53-ad4f-8cda48b3081%d" % i, "flow": "xtls-rprx-vision",
                  "email": "user%d" % i, "limitIp": 0, "totalGB": 0, "expiryTime": 0, "enable": True,
                  "tgId": 0, "subId": "k3x9q2m7v1p8z4w%d" % i, "comment": "", "reset": 0}
            s, r = c.json("POST", "/panel/api/inbounds/addClient", {"id": iid, "settings": json.dumps({"clients": [cl]})})
            self.assertTrue(r["success"], r)
        s, r = c.json("POST", "/panel/api/inbounds/addClient", {"id": iid, "settings": json.dumps(
            {"clients": [{"id": "x", "email": "User1", "subId": "zz"}]})})
        self.assertEqual(r["msg"], "Something went wrong (Duplicate email: User1\n)")
        for i in (1, 2, 3):
            self.check_sub(d, "/sub/k3x9q2m7v1p8z4w%d" % i, "user%d" % i, pbk)
        s, r = c.json("POST", "/panel/api/inbounds/%d/delClientByEmail/user2" % iid, {})
        self.assertTrue(r["success"], r)
        self.assertEqual(Client(d.sub_port).req("GET", "/sub/k3x9q2m7v1p8z4w2")[:3:2], (400, b"Error!"))
        # brute-force limiter: after 5 failures even the right password is refused
        for _ in range(5):
            self.assertFalse(self.login(d, password="bad")[1]["success"])
        self.assertFalse(self.login(d)[1]["success"])

    def test_faults(self):
        d = self.start("--fault", "500", "--fault-count", "1", "--slow-seconds", "1.5")
        run_fault_checks(self, d.port, lambda c: c.req("GET", "/csrf-token"))
        c, _ = self.login(d)
        self.assertEqual(c.req("GET", "/panel/api/inbounds/list")[0], 200)
        set_fault(d.port, "401-after-restart", 1)
        self.assertEqual(c.req("GET", "/panel/api/inbounds/list", headers={
            "X-Requested-With": "XMLHttpRequest"})[0], 401)
        self.assertEqual(c.req("GET", "/panel/api/inbounds/list")[0], 404)  # still logged out
        c, _ = self.login(d)
        self.assertEqual(c.req("GET", "/panel/api/inbounds/list")[0], 200)
        # faults reach the subscription listener too (match restricts them)
        set_fault(d.port, "500", 1, match="/sub/")
        self.assertEqual(Client(d.sub_port).req("GET", "/sub/whatever")[0], 500)


if __name__ == "__main__":
    unittest.main()
