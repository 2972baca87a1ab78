"""Walks the Remnawave and PasarGuard test doubles through the flow an adapter plugin
takes (bootstrap, 3 users, subscriptions, delete, duplicate, wrong credentials,
restart with the same --state-dir, faults). Test infrastructure only, stdlib only.

    python3 -m unittest tests/doubles/test_doubles_remna_pasar.py -v

Set STAND_CAPTURE_DIR=DIR to keep the request captures for
tests/contracts/check_*_contract.sh: <panel>-client_flow.jsonl holds only what a correct
client sends (must pass the contract check); <panel>-full_flow.jsonl also holds the
deliberately wrong requests of the negative checks.
"""

import base64
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REMNA = os.path.join(HERE, "remnawave", "remnawave_double.py")
PASAR = os.path.join(HERE, "pasarguard", "pasarguard_double.py")
PASAR_CLI = os.path.join(HERE, "pasarguard", "pasarguard_cli.py")
NIL = "00000000-0000-0000-0000-000000000000"
XFF = {"X-Forwarded-For": "127.0.0.1", "X-Forwarded-Proto": "https"}
UA = {"User-Agent": "v2rayN/7.5.0"}


class Double:
    def __init__(self, script, *args):
        self.script, self.args = script, list(args)
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen([sys.executable, self.script, "--port", "0"] + self.args,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"listening on 127\.0\.0\.1:(\d+)$", line.strip())
        if not m:
            self.proc.kill()
            raise RuntimeError("double did not start: %r %s" % (line, self.proc.stderr.read()))
        self.port = int(m.group(1))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc:
            self.proc.stdout.close()
            self.proc.stderr.close()

    def restart(self):
        self.stop()
        self.start()

    def req(self, method, path, headers=None, body=None, form=None, timeout=10):
        h = dict(headers or {})
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            h["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request(method, path, body=data, headers=h)
            r = c.getresponse()
            raw = r.read()
            hdrs = {k.lower(): v for k, v in r.getheaders()}
        finally:
            c.close()
        try:
            js = json.loads(raw) if raw else None
        except ValueError:
            js = None
        return r.status, hdrs, raw, js


def decode_sub(raw):
    text = base64.b64decode(raw, validate=True).decode()
    return text.split("\n") if text else []


def parse_ss(link):
    """ss://base64(method:password)@host:port#remark -> dict."""
    u = urllib.parse.urlsplit(link)
    assert u.scheme == "ss", link
    cred, _, hostport = u.netloc.rpartition("@")
    method, _, password = base64.b64decode(cred, validate=True).decode().partition(":")
    host, _, port = hostport.rpartition(":")
    return {"method": method, "password": password, "host": host, "port": int(port),
            "remark": urllib.parse.unquote(u.fragment)}


def hysteria_inbound(tag, port, cert, key, finalmask=None):
    """Xray's hysteria inbound (version 2) as the adapters send it."""
    stream = {"network": "hysteria", "security": "tls",
              "hysteriaSettings": {"version": 2, "udpIdleTimeout": 60},
              "tlsSettings": {"alpn": ["h3"],
                              "certificates": [{"certificateFile": cert, "keyFile": key}]}}
    if finalmask:
        stream["finalmask"] = finalmask
    return {"tag": tag, "port": port, "protocol": "hysteria",
            "settings": {"version": 2, "clients": []}, "streamSettings": stream}


def parse_hy2(link):
    """hysteria2://auth@host:port/?query#remark -> (auth, host, port, {key: value})."""
    u = urllib.parse.urlsplit(link)
    assert u.scheme == "hysteria2", link
    auth, _, hostport = u.netloc.rpartition("@")
    host, _, port = hostport.rpartition(":")
    return urllib.parse.unquote(auth), host, int(port), dict(urllib.parse.parse_qsl(u.query))


def keep_capture(src, name):
    d = os.environ.get("STAND_CAPTURE_DIR")
    if d and os.path.exists(src):
        os.makedirs(d, exist_ok=True)
        shutil.copy(src, os.path.join(d, name))


class RemnawaveDoubleTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="remna-double-")
        self.capture = os.path.join(self.tmp, "capture.jsonl")
        self.d = Double(REMNA, "--state-dir", os.path.join(self.tmp, "state"),
                        "--capture", self.capture)

    def tearDown(self):
        self.d.stop()
        keep_capture(self.capture, "remnawave-%s.jsonl" % self._testMethodName[5:])
        shutil.rmtree(self.tmp, ignore_errors=True)

    def api(self, method, path, token=None, body=None, browser=False, extra=None):
        h = dict(XFF)
        if token:
            h["Authorization"] = "Bearer " + token
        if browser:
            h["X-Remnawave-Client-Type"] = "browser"
        h.update(extra or {})
        return self.d.req(method, path, h, body)

    def admin_token(self, password="Bn-0123456789abcdef0123Aa1"):
        """Registers the admin on the fresh double and mints an API token (browser session)."""
        js = self.api("POST", "/api/auth/register",
                      body={"username": "benchadmin", "password": password})[3]
        js = self.api("POST", "/api/tokens", js["response"]["accessToken"],
                      {"name": "bench", "expiresInDays": 7}, browser=True)[3]
        return js["response"]["token"]

    def test_client_flow(self):
        """Only what a correct plugin sends (tests/data/seed-harness/HARNESS.md §1.4, Remnawave)."""
        self.assertEqual(self.api("GET", "/api/auth/status")[0], 200)
        password = "Bn-0123456789abcdef0123Aa1"
        tok = self.admin_token(password)
        squad = self.api("GET", "/api/internal-squads", tok)[3]["response"]["internalSquads"][0]
        inb = squad["inbounds"][0]
        self.assertEqual(self.api("POST", "/api/hosts", tok, {
            "inbound": {"configProfileUuid": inb["profileUuid"],
                        "configProfileInboundUuid": inb["uuid"]},
            "remark": "bench-host", "address": "node1.bench.test", "port": 1234})[0], 201)
        users = []
        for i in (1, 2, 3):
            st, _, _, js = self.api("POST", "/api/users", tok, {
                "username": "user%d" % i, "expireAt": "2099-01-01T00:00:00.000Z",
                "activeInternalSquads": [squad["uuid"]]})
            self.assertEqual(st, 201)
            users.append(js["response"])
        for u in users:
            st, _, raw, _ = self.api("GET", "/api/sub/" + u["shortUuid"], extra=UA)
            self.assertEqual(parse_ss(decode_sub(raw)[0])["password"], u["ssPassword"])
        self.assertEqual(self.api("GET", "/api/users?size=1", tok)[0], 200)
        self.assertEqual(self.api("DELETE", "/api/users/%d" % users[0]["id"], tok)[0], 204)
        js = self.api("POST", "/api/auth/login",
                      body={"username": "benchadmin", "password": password})[3]
        self.assertIn("accessToken", js["response"])

    def test_hysteria2_profile(self):
        """A config profile with a hysteria inbound, its squad, a host pinning the
        certificate: the links carry the vlessUuid, sni and pinSHA256 (never insecure)."""
        tok = self.admin_token()
        mask = {"quicParams": {"congestion": "bbr"}}
        config = {"inbounds": [hysteria_inbound("hy2", 4443, "/tls/p256.crt", "/tls/p256.key", mask)],
                  "outbounds": [{"tag": "DIRECT", "protocol": "freedom"}]}
        self.assertEqual(self.api("POST", "/api/config-profiles", tok,
                                  {"name": "Default-Profile", "config": config})[3]["errorCode"], "A145")
        self.assertEqual(self.api("POST", "/api/config-profiles", tok,
                                  {"name": "bad/name", "config": config})[0], 400)
        self.assertEqual(self.api("POST", "/api/config-profiles", tok,
                                  {"name": "empty", "config": {"inbounds": []}})[3]["errorCode"], "A112")
        st, _, _, js = self.api("POST", "/api/config-profiles", tok, {"name": "hy2", "config": config})
        self.assertEqual(st, 201)
        profile = js["response"]
        inbound = profile["inbounds"][0]
        self.assertEqual((inbound["type"], inbound["network"], inbound["security"], inbound["port"]),
                         ("hysteria", "hysteria", "tls", 4443))
        self.assertEqual(self.api("POST", "/api/config-profiles", tok,
                                  {"name": "hy2", "config": config})[0], 409)
        st, _, _, js = self.api("POST", "/api/config-profiles", tok, {"name": "other", "config": config})
        self.assertEqual((st, js["errorCode"]), (409, "A113"))
        names = [p["name"] for p in self.api("GET", "/api/config-profiles", tok)[3]["response"]["configProfiles"]]
        self.assertEqual(names, ["Default-Profile", "hy2"])
        squad = self.api("POST", "/api/internal-squads", tok,
                         {"name": "hy2", "inbounds": [inbound["uuid"]]})[3]["response"]
        pin = "ab" * 32
        self.assertEqual(self.api("POST", "/api/hosts", tok, {
            "inbound": {"configProfileUuid": profile["uuid"], "configProfileInboundUuid": inbound["uuid"]},
            "remark": "hy2 host", "address": "node1.bench.test", "port": 4443, "sni": "localhost",
            "pinnedPeerCertSha256": pin})[0], 201)
        user = self.api("POST", "/api/users", tok, {
            "username": "user1", "expireAt": "2099-01-01T00:00:00.000Z",
            "activeInternalSquads": [squad["uuid"]]})[3]["response"]
        links = decode_sub(self.api("GET", "/api/sub/" + user["shortUuid"], extra=UA)[2])
        self.assertEqual(len(links), 1)
        self.assertRegex(links[0], r"^hysteria2://[^@]+@node1\.bench\.test:4443/\?sni=")
        auth, host, port, q = parse_hy2(links[0])
        self.assertEqual((auth, q["sni"], q["pinSHA256"]), (user["vlessUuid"], "localhost", pin))
        self.assertEqual(json.loads(q["fm"]), mask)
        self.assertNotIn("insecure", q)
        self.assertTrue(links[0].endswith("#hy2%20host"))

    def test_user_switch_quota_traffic(self):
        """3.3.2's switch (POST /api/users/{id}/actions/disable|enable: DISABLED, ACTIVE; the same again
        400 A029/A030), PATCH /api/users by the numeric id or the username (trafficLimitBytes, 0 unlimited,
        lifts LIMITED; fields left out stay) and userTraffic.usedTrafficBytes (0: the double moves nothing)."""
        tok = self.admin_token()
        squad = self.api("GET", "/api/internal-squads", tok)[3]["response"]["internalSquads"][0]["uuid"]
        u = self.api("POST", "/api/users", tok, {"username": "switch1", "expireAt": "2099-01-01T00:00:00.000Z",
                                                 "activeInternalSquads": [squad]})[3]["response"]
        at = "/api/users/%d" % u["id"]
        st, _, _, js = self.api("POST", at + "/actions/disable", tok)
        self.assertEqual((st, js["response"]["status"], js["response"]["id"]), (200, "DISABLED", u["id"]))
        link = decode_sub(self.api("GET", "/api/sub/" + u["shortUuid"], extra=UA)[2])[0]
        self.assertEqual(urllib.parse.unquote(link.partition("#")[2]), "🚫 Subscription disabled")
        st, _, _, js = self.api("POST", at + "/actions/disable", tok)
        self.assertEqual((st, js["errorCode"], js["message"]), (400, "A029", "User already disabled"))
        self.assertEqual(self.api("POST", at + "/actions/enable", tok)[3]["response"]["status"], "ACTIVE")
        self.assertEqual(self.api("POST", at + "/actions/enable", tok)[3]["errorCode"], "A030")
        st, _, _, js = self.api("PATCH", "/api/users", tok, {"id": u["id"], "trafficLimitBytes": 1 << 30})
        self.assertEqual((st, js["response"]["trafficLimitBytes"], js["response"]["status"]), (200, 1 << 30, "ACTIVE"))
        headers = self.api("GET", "/api/sub/" + u["shortUuid"], extra=UA)[1]
        self.assertIn("total=%d;" % (1 << 30), headers["subscription-userinfo"])
        js = self.api("PATCH", "/api/users", tok, {"username": "switch1", "status": "DISABLED"})[3]["response"]
        self.assertEqual((js["status"], js["trafficLimitBytes"]), ("DISABLED", 1 << 30))
        st, _, _, js = self.api("GET", at, tok)
        self.assertEqual((st, js["response"]["userTraffic"]["usedTrafficBytes"]), (200, 0))
        limited = self.api("POST", "/api/users", tok, {"username": "over1", "status": "LIMITED", "trafficLimitBytes": 5,
                                                       "expireAt": "2099-01-01T00:00:00.000Z"})[3]["response"]
        js = self.api("PATCH", "/api/users", tok, {"id": limited["id"], "trafficLimitBytes": 0})[3]["response"]
        self.assertEqual((js["status"], js["trafficLimitBytes"]), ("ACTIVE", 0))
        for body in ({"id": u["id"], "trafficLimitBytes": -1}, {"trafficLimitBytes": 1},
                     {"id": u["id"], "status": "LIMITED"}, {"id": u["id"], "description": "not modelled"}):
            self.assertEqual(self.api("PATCH", "/api/users", tok, body)[0], 400, body)
        self.assertEqual(self.api("PATCH", "/api/users", tok, {"id": 999, "status": "ACTIVE"})[3]["errorCode"], "A025")
        self.assertEqual(self.api("POST", "/api/users/999/actions/enable", tok)[3]["errorCode"], "A025")
        self.assertEqual(self.api("POST", "/api/users/abc/actions/disable", tok)[0], 400)
        st, _, _, js = self.api("GET", "/api/users/999", tok)
        self.assertEqual((st, js["errorCode"], js["message"]), (404, "A063", "User with specified params not found"))

    def test_full_flow(self):
        d = self.d
        # readiness needs the forwarding headers: without them no HTTP answer at all
        with self.assertRaises((ConnectionError, http.client.HTTPException, OSError)):
            d.req("GET", "/api/auth/status")
        st, _, _, js = self.api("GET", "/api/auth/status")
        self.assertEqual(st, 200)
        self.assertTrue(js["response"]["isRegisterAllowed"])

        # register (weak password -> 400 validation), then 201
        st, _, _, js = self.api("POST", "/api/auth/register",
                                body={"username": "benchadmin", "password": "short1A"})
        self.assertEqual(st, 400)
        password = "Bn-0123456789abcdef0123Aa1"
        st, _, _, js = self.api("POST", "/api/auth/register",
                                body={"username": "benchadmin", "password": password})
        self.assertEqual(st, 201)
        admin_jwt = js["response"]["accessToken"]
        # second register refused
        st, _, _, js = self.api("POST", "/api/auth/register",
                                body={"username": "x2", "password": password})
        self.assertEqual((st, js["message"]), (403, "Forbidden"))
        # wrong credentials -> 403: ERRORS.FORBIDDEN through http-exception.filter.ts,
        # which gives every 403 the message "Forbidden" and the code E000
        st, _, _, js = self.api("POST", "/api/auth/login",
                                body={"username": "benchadmin", "password": password + "x"})
        self.assertEqual((st, js["errorCode"], js["message"]), (403, "E000", "Forbidden"))
        st, _, _, js = self.api("POST", "/api/auth/login",
                                body={"username": "benchadmin", "password": password})
        self.assertEqual(st, 200)
        admin_jwt = js["response"]["accessToken"]

        # API token: admin JWT without the browser header -> 403; with it -> 201
        st, _, _, js = self.api("POST", "/api/tokens", admin_jwt,
                                {"name": "bench", "expiresInDays": 7})
        self.assertEqual(st, 403)
        self.assertIn("API-token", js["message"])
        st, _, _, js = self.api("POST", "/api/tokens", admin_jwt,
                                {"name": "bench", "expiresInDays": 7}, browser=True)
        self.assertEqual(st, 201)
        tok = js["response"]["token"]
        st, _, _, _ = self.api("GET", "/api/internal-squads")
        self.assertEqual(st, 401)
        st, _, _, _ = self.api("POST", "/api/tokens", tok, {"name": "n2", "expiresInDays": 1})
        self.assertEqual(st, 403)  # API token cannot mint tokens

        # squad + inbound + host
        st, _, _, js = self.api("GET", "/api/internal-squads", tok)
        self.assertEqual(st, 200)
        squad = js["response"]["internalSquads"][0]
        self.assertNotEqual(squad["uuid"], NIL)        # made by a migration: random
        inb = squad["inbounds"][0]
        self.assertEqual((inb["type"], inb["port"], inb["profileUuid"]), ("shadowsocks", 1234, NIL))
        host = {"inbound": {"configProfileUuid": inb["profileUuid"],
                            "configProfileInboundUuid": inb["uuid"]},
                "remark": "bench-host", "address": "node1.bench.test", "port": 1234}
        st, _, _, js = self.api("POST", "/api/hosts", tok, host)
        self.assertEqual(st, 201)
        self.assertEqual(js["response"]["remark"], "bench-host")
        # a duplicate remark is accepted (two hosts), and DELETE /api/hosts/{uuid} removes one
        st, _, _, js = self.api("POST", "/api/hosts", tok, host)
        self.assertEqual(st, 201)
        dup = js["response"]["uuid"]
        st, _, _, js = self.api("GET", "/api/hosts", tok)
        self.assertEqual([h["remark"] for h in js["response"]], ["bench-host", "bench-host"])
        self.assertEqual(self.api("DELETE", "/api/hosts/" + dup, tok)[:3:2], (204, b""))
        st, _, _, js = self.api("DELETE", "/api/hosts/" + dup, tok)
        self.assertEqual((st, js["errorCode"]), (404, "A046"))

        # 3 users
        users = []
        for i in (1, 2, 3):
            st, _, _, js = self.api("POST", "/api/users", tok, {
                "username": "user%d" % i, "expireAt": "2099-01-01T00:00:00.000Z",
                "activeInternalSquads": [squad["uuid"]]})
            self.assertEqual(st, 201, js)
            u = js["response"]
            self.assertIsInstance(u["id"], int)
            self.assertNotIn("uuid", u)
            self.assertTrue(u["subscriptionUrl"].startswith("https://"))
            self.assertTrue(u["subscriptionUrl"].endswith("/" + u["shortUuid"]))
            users.append(u)
        # duplicate -> 400 A019
        st, _, _, js = self.api("POST", "/api/users", tok, {
            "username": "user1", "expireAt": "2099-01-01T00:00:00.000Z"})
        self.assertEqual((st, js["errorCode"]), (400, "A019"))
        st, _, _, js = self.api("POST", "/api/users", tok, {"username": "u1"})
        self.assertEqual(st, 400)
        self.assertEqual({tuple(i["path"]) for i in js["errors"]},
                         {("username",), ("expireAt",)})

        # subscriptions: base64, one ss:// link per host, password = ssPassword
        for u in users:
            path = "/api/sub/" + u["shortUuid"]
            with self.assertRaises((ConnectionError, http.client.HTTPException, OSError)):
                d.req("GET", path, UA)
            st, hdr, _, _ = self.api("GET", path)          # no User-Agent -> 403
            self.assertEqual(st, 403)
            st, hdr, raw, _ = self.api("GET", path, extra=UA)
            self.assertEqual(st, 200)
            self.assertTrue(hdr["content-type"].startswith("text/plain"))
            self.assertIn("upload=0", hdr["subscription-userinfo"])
            links = decode_sub(raw)
            self.assertEqual(len(links), 1)
            ss = parse_ss(links[0])
            self.assertEqual(ss, {"method": "chacha20-ietf-poly1305",
                                  "password": u["ssPassword"], "host": "node1.bench.test",
                                  "port": 1234, "remark": "bench-host"})

        # delete user1 -> 204, its subscription 404, second delete 404
        st, _, raw, _ = self.api("DELETE", "/api/users/%d" % users[0]["id"], tok)
        self.assertEqual((st, raw), (204, b""))
        st, _, _, js = self.api("GET", "/api/sub/" + users[0]["shortUuid"], extra=UA)
        self.assertEqual((st, js["isFound"]), (404, False))
        st, _, _, js = self.api("DELETE", "/api/users/%d" % users[0]["id"], tok)
        self.assertEqual((st, js["errorCode"]), (404, "A025"))

        # restart with the same --state-dir: users, token and admin survive
        d.restart()
        st, _, _, js = self.api("GET", "/api/auth/status")
        self.assertEqual((st, js["response"]["isLoginAllowed"]), (200, True))
        st, _, _, js = self.api("GET", "/api/users", tok)
        self.assertEqual(st, 200)
        self.assertEqual([u["username"] for u in js["response"]["users"]], ["user2", "user3"])
        st, _, raw, _ = self.api("GET", "/api/sub/" + users[1]["shortUuid"], extra=UA)
        self.assertEqual(parse_ss(decode_sub(raw)[0])["password"], users[1]["ssPassword"])

        # faults
        st, _, _, js = d.req("POST", "/__double/fault", body={"fault": "500", "count": 1})
        self.assertEqual(st, 200)
        self.assertEqual(self.api("GET", "/api/users", tok)[0], 500)
        self.assertEqual(self.api("GET", "/api/users", tok)[0], 200)
        d.req("POST", "/__double/fault", body={"fault": "garbage", "count": 1})
        st, _, raw, js = self.api("GET", "/api/users", tok)
        self.assertEqual((st, js), (200, None))
        d.req("POST", "/__double/fault", body={"fault": "reset", "count": 1})
        with self.assertRaises((ConnectionError, http.client.HTTPException, OSError)):
            self.api("GET", "/api/users", tok)
        d.req("POST", "/__double/fault", body={"fault": "slow", "count": 1,
                                               "slow_seconds": 0.3})
        t0 = time.monotonic()
        self.assertEqual(self.api("GET", "/api/users", tok)[0], 200)
        self.assertGreaterEqual(time.monotonic() - t0, 0.25)
        d.req("POST", "/__double/fault", body={"fault": "401-after-restart", "count": 1})
        st, _, _, js = self.api("GET", "/api/users", tok)
        self.assertEqual((st, js["statusCode"]), (401, 401))
        # recovery: login + browser header + new API token
        st, _, _, js = self.api("POST", "/api/auth/login",
                                body={"username": "benchadmin", "password": password})
        st, _, _, js = self.api("POST", "/api/tokens", js["response"]["accessToken"],
                                {"name": "bench2", "expiresInDays": 7}, browser=True)
        self.assertEqual(st, 201)
        fresh = js["response"]
        self.assertEqual(self.api("GET", "/api/users", fresh["token"])[0], 200)
        # a deleted API token: the JWT still verifies, the guard refuses it
        st, _, _, js = self.api("POST", "/api/auth/login",
                                body={"username": "benchadmin", "password": password})
        st, _, _, _ = self.api("DELETE", "/api/tokens/" + fresh["uuid"],
                               js["response"]["accessToken"], browser=True)
        self.assertEqual(st, 204)
        st, _, _, js = self.api("GET", "/api/users", fresh["token"])
        self.assertEqual((st, js["message"]), (403, "Forbidden resource"))
        st, _, _, stats = d.req("GET", "/__double/stats")
        self.assertEqual(stats["faults_injected"].get("500"), 1)


class PasarGuardDoubleTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pasar-double-")
        self.state = os.path.join(self.tmp, "state")
        self.capture = os.path.join(self.tmp, "capture.jsonl")
        self.d = Double(PASAR, "--state-dir", self.state, "--capture", self.capture)

    def tearDown(self):
        self.d.stop()
        keep_capture(self.capture, "pasarguard-%s.jsonl" % self._testMethodName[5:])
        shutil.rmtree(self.tmp, ignore_errors=True)

    def temp_key(self, *where):
        out = subprocess.run([sys.executable, PASAR_CLI, "generate-temp-key"] + list(where),
                             capture_output=True, text=True, check=True).stdout
        return re.search(r"Temp key: (\S+)", out).group(1)

    def api(self, method, path, token=None, body=None):
        h = {"Authorization": "Bearer " + token} if token else {}
        return self.d.req(method, path, h, body)

    def owner_token(self, password="Bn-0123456789abAa1"):
        """Creates the owner with a temp key and returns its bearer token."""
        key = self.temp_key("--state-dir", self.state)
        self.assertEqual(self.api("POST", "/api/setup/owner", body={
            "key": key, "username": "benchadmin", "password": password})[0], 201)
        return self.d.req("POST", "/api/admin/token",
                          form={"username": "benchadmin", "password": password})[3]["access_token"]

    def test_client_flow(self):
        """Only what a correct plugin sends (tests/data/seed-harness/HARNESS.md §1.4, PasarGuard)."""
        d = self.d
        self.assertEqual(d.req("GET", "/")[0], 200)
        tok = self.owner_token()
        gid = self.api("POST", "/api/group", tok, {"name": "everyone",
                                                   "inbound_tags": ["Shadowsocks TCP"]})[3]["id"]
        self.assertEqual(self.api("POST", "/api/host/", tok, {
            "remark": "bench-host", "address": ["node1.bench.test"],
            "inbound_tag": "Shadowsocks TCP", "port": 1080, "priority": 1})[0], 201)
        urls = []
        for i in (1, 2, 3):
            st, _, _, js = self.api("POST", "/api/user", tok, {
                "username": "user%d" % i, "group_ids": [gid], "data_limit": 0})
            self.assertEqual(st, 201)
            urls.append(js["subscription_url"])
        for url in urls:
            st, _, raw, _ = d.req("GET", url, UA)
            self.assertEqual((st, len(decode_sub(raw))), (200, 1))
        self.assertEqual(self.api("GET", "/api/users?limit=1", tok)[0], 200)
        self.assertEqual(self.api("DELETE", "/api/user/user1", tok)[0], 204)

    def test_hysteria2_core(self):
        """A core config with a hysteria inbound (the panel opens its certificate files),
        a group and a host pinning the certificate: the links carry the user's hysteria auth."""
        tok = self.owner_token()
        cert, key = os.path.join(self.tmp, "p256.crt"), os.path.join(self.tmp, "p256.key")
        inbound = hysteria_inbound("hy2", 4443, cert, key)
        core = {"inbounds": [inbound], "outbounds": [{"protocol": "freedom", "tag": "DIRECT"}]}
        st, _, _, js = self.api("POST", "/api/core", tok, {"name": "hy2", "config": core})
        self.assertEqual(st, 400)
        self.assertIn("No such file or directory: '%s'" % cert, js["detail"])
        for f in (cert, key):
            with open(f, "w") as out:
                out.write("test\n")
        no_tls = json.loads(json.dumps(core))
        no_tls["inbounds"][0]["streamSettings"]["security"] = "none"
        self.assertEqual(self.api("POST", "/api/core", tok, {"name": "hy2", "config": no_tls})[3],
                         {"detail": "hy2 hysteria inbound requires TLS"})
        self.assertEqual(self.api("POST", "/api/core", tok, {"name": "x", "config": {}})[0], 422)
        st, _, _, js = self.api("POST", "/api/core", tok, {"name": "hy2", "config": core})
        self.assertEqual((st, js["id"], js["type"]), (201, 2, "xray"))
        self.assertIn("hy2", self.api("GET", "/api/inbounds", tok)[3])
        gid = self.api("POST", "/api/group", tok, {"name": "hy2", "inbound_tags": ["hy2"]})[3]["id"]
        pin = "cd" * 32
        self.assertEqual(self.api("POST", "/api/host/", tok, {
            "remark": "hy2 host", "address": ["node1.bench.test"], "inbound_tag": "hy2",
            "port": 4443, "sni": ["localhost"], "pinned_peer_cert_sha256": pin, "priority": 1})[0], 201)
        user = self.api("POST", "/api/user", tok, {"username": "user1", "group_ids": [gid]})[3]
        st, _, raw, _ = self.d.req("GET", user["subscription_url"], UA)
        links = decode_sub(raw)
        self.assertEqual(len(links), 1)
        auth, host, port, q = parse_hy2(links[0])
        self.assertEqual((auth, host, port), (user["proxy_settings"]["hysteria"]["auth"],
                                              "node1.bench.test", 4443))
        self.assertEqual((q["sni"], q["pcs"], q["pinSHA256"]), ("localhost", pin, pin))
        self.assertNotIn("fp", q)  # the host's fingerprint is "" (as on v5.2.1)
        self.assertNotIn("allowInsecure", q)

    def test_sqlite_ids_and_list_urls(self):
        """v5.2.1 on SQLite: a deleted highest id is given again; GET /api/users leaves
        subscription_url "" unless load_sub=true."""
        d = self.d
        tok = self.owner_token()
        ids = [self.api("POST", "/api/user", tok, {"username": "user%d" % i})[3]["id"]
               for i in (1, 2)]
        self.assertEqual(ids, [1, 2])
        self.assertEqual(self.api("DELETE", "/api/user/by-id/2", tok)[0], 204)
        self.assertEqual(self.api("POST", "/api/user", tok, {"username": "user3"})[3]["id"], 2)
        st, _, _, js = self.api("GET", "/api/users", tok)
        self.assertEqual([u["subscription_url"] for u in js["users"]], ["", ""])
        st, _, _, js = self.api("GET", "/api/users?load_sub=true", tok)
        self.assertTrue(all(u["subscription_url"].startswith("/sub/") for u in js["users"]))
        # a missing route and a missing user are told apart by the body
        self.assertEqual(self.api("GET", "/api/user/by-id/9", tok)[3], {"detail": "User not found"})
        self.assertEqual(self.api("DELETE", "/api/nope/9", tok)[:4:3], (404, {"detail": "Not Found"}))

    def test_modify_user_status_and_limit(self):
        """v5.2.1 PUT /api/user/by-id (UserModify): status active/on_hold/disabled, data_limit in
        bytes; fields left out unchanged; used_traffic read back (the double counts none)."""
        tok = self.owner_token()
        uid = self.api("POST", "/api/user", tok, {"username": "mod1"})[3]["id"]
        st, _, _, js = self.api("PUT", "/api/user/by-id/%d" % uid, tok, {"status": "disabled"})
        self.assertEqual((st, js["status"], js["data_limit"]), (200, "disabled", 0))
        st, _, _, js = self.api("PUT", "/api/user/by-id/%d" % uid, tok, {"data_limit": 1})
        self.assertEqual((st, js["status"], js["data_limit"], js["used_traffic"]), (200, "disabled", 1, 0))
        self.assertEqual(self.api("PUT", "/api/user/by-id/%d" % uid, tok, {"status": "limited"})[0], 422)
        self.assertEqual(self.api("PUT", "/api/user/by-id/99", tok, {"status": "active"})[3],
                         {"detail": "User not found"})

    def test_full_flow(self):
        d = self.d
        st, _, raw, _ = d.req("GET", "/")
        self.assertEqual(st, 200)
        self.assertEqual(d.req("GET", "/health")[3], {"status": "ok"})

        # owner via temp key
        password = "Bn-0123456789abAa1"
        self.assertEqual(self.api("POST", "/api/setup/owner", body={
            "key": "not-a-key", "username": "benchadmin", "password": password})[0], 400)
        key = self.temp_key("--state-dir", self.state)
        st, _, _, js = self.api("POST", "/api/setup/owner", body={
            "key": key, "username": "benchadmin", "password": "weak"})
        self.assertEqual(st, 422)
        self.assertIn("password", js["detail"])
        st, _, _, js = self.api("POST", "/api/setup/owner", body={
            "key": key, "username": "benchadmin", "password": password})
        self.assertEqual(st, 201, js)
        self.assertEqual(js["username"], "benchadmin")
        st, _, _, js = self.api("POST", "/api/setup/owner", body={
            "key": key, "username": "benchadmin", "password": password})
        self.assertEqual((st, js["detail"]), (409, "owner already exists"))
        st, _, _, js = self.api("PATCH", "/api/setup/owner",
                                body={"key": key, "password": password})
        self.assertEqual((st, js["detail"]), (410, "key already used"))

        # token: form only; wrong credentials 401; JSON 422
        st, hdr, _, js = d.req("POST", "/api/admin/token",
                               form={"username": "benchadmin", "password": "wrong"})
        self.assertEqual((st, js["detail"]), (401, "Incorrect username or password"))
        self.assertEqual(hdr["www-authenticate"], "Bearer")
        st, _, _, js = d.req("POST", "/api/admin/token",
                             body={"username": "benchadmin", "password": password})
        self.assertEqual(st, 422)
        self.assertEqual(set(js["detail"]), {"username", "password"})
        st, _, _, js = d.req("POST", "/api/admin/token",
                             form={"username": "benchadmin", "password": password})
        self.assertEqual(st, 200)
        self.assertEqual(js["token_type"], "bearer")
        tok = js["access_token"]
        st, _, _, js = self.api("GET", "/api/inbounds")
        self.assertEqual((st, js["detail"]), (401, "Could not validate credentials"))

        # group + host
        self.assertEqual(self.api("GET", "/api/inbounds", tok)[3], ["Shadowsocks TCP"])
        st, _, _, js = self.api("POST", "/api/group", tok,
                                {"name": "everyone", "inbound_tags": ["nope"]})
        self.assertEqual((st, js["detail"]), (400, "nope not found"))
        st, _, _, js = self.api("POST", "/api/group", tok,
                                {"name": "everyone", "inbound_tags": ["Shadowsocks TCP"]})
        self.assertEqual(st, 201)
        gid = js["id"]
        host = {"remark": "bench-host", "address": ["node1.bench.test"],
                "inbound_tag": "Shadowsocks TCP", "port": 1080, "priority": 1}
        st, hdr, _, _ = self.api("POST", "/api/host", tok, host)
        self.assertEqual(st, 307)
        self.assertTrue(hdr["location"].endswith("/api/host/"))
        st, _, _, js = self.api("POST", "/api/host/", tok, host)
        self.assertEqual(st, 201, js)

        # 3 users, relative subscription URLs
        users = []
        for i in (1, 2, 3):
            st, _, _, js = self.api("POST", "/api/user", tok,
                                    {"username": "user%d" % i, "group_ids": [gid],
                                     "data_limit": 0})
            self.assertEqual(st, 201, js)
            self.assertRegex(js["subscription_url"], r"^/sub/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$")
            users.append(js)
        st, _, _, js = self.api("POST", "/api/user", tok, {"username": "user1",
                                                          "group_ids": [gid]})
        self.assertEqual((st, js["detail"]), (409, "User already exists"))
        st, _, _, js = self.api("POST", "/api/user", tok, {"username": "a__b"})
        self.assertEqual(st, 422)
        self.assertIn("username", js["detail"])
        # a token is minted on every user response (second resolution, so it may equal
        # the earlier one); every issued token stays valid
        again = self.api("GET", "/api/user/user2", tok)[3]["subscription_url"]
        self.assertTrue(again.startswith("/sub/"))

        for u in users + [dict(users[1], subscription_url=again)]:
            st, hdr, raw, _ = d.req("GET", u["subscription_url"], UA)   # resolve vs origin
            self.assertEqual(st, 200)
            self.assertTrue(hdr["content-type"].startswith("text/plain"))
            self.assertTrue(hdr["subscription-userinfo"].startswith("upload=0;"))
            links = decode_sub(raw)
            self.assertEqual(len(links), 1)
            ss = parse_ss(links[0])
            self.assertEqual(ss, {"method": u["proxy_settings"]["shadowsocks"]["method"],
                                  "password": u["proxy_settings"]["shadowsocks"]["password"],
                                  "host": "node1.bench.test", "port": 1080,
                                  "remark": "bench-host"})

        # delete -> 204; its subscription -> 404; second delete 404
        st, _, raw, _ = self.api("DELETE", "/api/user/user1", tok)
        self.assertEqual((st, raw), (204, b""))
        st, _, _, js = d.req("GET", users[0]["subscription_url"], UA)
        self.assertEqual((st, js), (404, {"detail": "Not Found"}))
        self.assertEqual(self.api("DELETE", "/api/user/user1", tok)[3],
                         {"detail": "User not found"})
        st, _, _, _ = d.req("GET", "/sub/forged.token", UA)
        self.assertEqual(st, 404)

        # restart: users, owner, token and old subscription URLs survive
        d.restart()
        st, _, _, js = self.api("GET", "/api/users", tok)
        self.assertEqual(st, 200)
        self.assertEqual([u["username"] for u in js["users"]], ["user2", "user3"])
        st, _, raw, _ = d.req("GET", users[2]["subscription_url"], UA)
        self.assertEqual((st, len(decode_sub(raw))), (200, 1))

        # temp key through a running double (CLI --url mode) resets the password
        key = self.temp_key("--url", "http://127.0.0.1:%d" % d.port)
        st, _, _, _ = self.api("PATCH", "/api/setup/owner",
                               body={"key": key, "password": password})
        self.assertEqual(st, 200)

        # faults
        d.req("POST", "/__double/fault", body={"fault": "500", "count": 1, "match": "/sub/"})
        self.assertEqual(d.req("GET", users[1]["subscription_url"], UA)[0], 500)
        self.assertEqual(d.req("GET", users[1]["subscription_url"], UA)[0], 200)
        d.req("POST", "/__double/fault", body={"fault": "reset", "count": 1})
        with self.assertRaises((ConnectionError, http.client.HTTPException, OSError)):
            d.req("GET", "/health")
        d.req("POST", "/__double/fault", body={"fault": "401-after-restart", "count": 1})
        st, hdr, _, js = d.req("POST", "/api/user", {"Authorization": "Bearer " + tok},
                               {"username": "user4", "group_ids": [gid]})
        self.assertEqual((st, js["detail"]), (401, "Could not validate credentials"))
        st, _, _, js = d.req("POST", "/api/admin/token",
                             form={"username": "benchadmin", "password": password})
        self.assertEqual(self.api("POST", "/api/user", js["access_token"],
                                  {"username": "user4", "group_ids": [gid]})[0], 201)


if __name__ == "__main__":
    unittest.main()
