#!/usr/bin/env python3
"""Mistgate panel test double (test infrastructure only; see ../README.md).

Behaviour follows HARNESS.md §1.3, §1.4 and §4 (Connect-RPC JSON admin API under a
secret admin path, password+TOTP owner setup, __Host-sid session, step-up, profile /
enrollment / inbound / group / users, hysteria2:// subscriptions, decoy site, rate
limits). Start by hand:  python3 mistgate_double.py --port 18080 --state-dir /tmp/mg
The stdout lines after "listening on ..." mirror `mistgate setup`:
    Admin URL:  http://127.0.0.1:PORT/<24 chars>/
    Setup link: http://127.0.0.1:PORT/<24 chars>/setup#<token>      (while setup is open)
"""

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import struct
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common.panel_double import (  # noqa: E402
    FixedWindow, PanelDouble, Response, TokenBucket, json_response, run_double,
    text_response)

API = "api/mistgate.admin.v1."
ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"

# Connect error code -> HTTP status (connect protocol spec).
CONNECT_STATUS = {
    "canceled": 499, "unknown": 500, "invalid_argument": 400,
    "deadline_exceeded": 504, "not_found": 404, "already_exists": 409,
    "permission_denied": 403, "resource_exhausted": 429, "failed_precondition": 400,
    "aborted": 409, "out_of_range": 400, "unimplemented": 501, "internal": 500,
    "unavailable": 503, "data_loss": 500, "unauthenticated": 401,
}

# Built-in decoy pages (same text as internal/panel/httpserver/decoy.go).
COMING_SOON_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Coming soon</title>
<style>html,body{height:100%;margin:0}body{display:flex;align-items:center;justify-content:center;font:16px/1.5 system-ui,sans-serif;color:#444;background:#fafafa}main{text-align:center;padding:1rem}h1{font-weight:500;margin:0 0 .5rem}p{margin:0;color:#888}</style>
</head><body><main><h1>Coming soon</h1><p>Something new is on its way.</p></main></body></html>
"""
NOT_FOUND_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>404 Not Found</title></head>
<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>
"""
TOO_MANY_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>429 Too Many Requests</title></head>
<body><h1>Too Many Requests</h1><p>Too many requests. Please try again later.</p></body></html>
"""
ADMIN_SPA_HTML = "<!doctype html><html><head><title>Mistgate</title></head><body><div id=app></div></body></html>\n"
HTML = "text/html; charset=utf-8"

HY2_DEFAULTS = {"port": 443, "tls_mode": "acme", "obfs": {"type": "salamander", "password": ""},
                "masquerade": {"type": "decoy"}, "up_mbps": 0, "down_mbps": 0}


class ConnectError(Exception):
    def __init__(self, code, message, details=None):
        Exception.__init__(self, message)
        self.code, self.message, self.details = code, message, details


def connect_error(code, message, details=None):
    body = {"code": code, "message": message}
    if details:
        body["details"] = details
    return json_response(body, CONNECT_STATUS[code])


def totp(secret_b32, step_no):
    key = base64.b32decode(secret_b32 + "=" * (-len(secret_b32) % 8))
    mac = hmac.new(key, struct.pack(">Q", step_no), hashlib.sha1).digest()
    off = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[off:off + 4])[0] & 0x7FFFFFFF) % 1000000)


def _varint(n):
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


def sign_in_failure_detail(attempts_left, locked_until):
    # Connect JSON error detail; field numbers 1/2 of SignInFailure are an assumption.
    raw = b""
    if attempts_left:
        raw += b"\x08" + _varint(attempts_left)
    if locked_until:
        raw += b"\x10" + _varint(locked_until)
    return [{"type": "mistgate.admin.v1.SignInFailure",
             "value": base64.b64encode(raw).decode().rstrip("="),
             "debug": {"attemptsLeft": attempts_left,
                       "lockedUntilUnix": str(locked_until)}}]


def pw_hash(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), 1000).hex()


def rid(prefix):
    return prefix + secrets.token_hex(8)


class MistgateDouble(PanelDouble):
    name = "mistgate"

    @classmethod
    def add_arguments(cls, p):
        p.add_argument("--public-url", help="default http://127.0.0.1:PORT")
        p.add_argument("--admin-path", help="24-char admin path (default random, persisted)")
        p.add_argument("--setup-token", help="setup token (default random, persisted)")
        p.add_argument("--trusted-proxy", action="append", default=[],
                       help="peer IP whose X-Forwarded-For is trusted (repeatable)")
        p.add_argument("--admin-rate", type=float, default=30, help="admin bucket tokens/s (-1 = off)")
        p.add_argument("--admin-burst", type=float, default=200)
        p.add_argument("--public-rate", type=float, default=10, help="decoy+subscription bucket (-1 = off)")
        p.add_argument("--public-burst", type=float, default=60)
        p.add_argument("--sub-max-per-hour", type=int, default=60, help="fetches per link per window (-1 = off)")
        p.add_argument("--sub-window", type=float, default=3600, help="seconds of the per-link window")
        p.add_argument("--sub-cache-seconds", type=float, default=10,
                       help="MinInterval render cache per link (0 = off)")
        p.add_argument("--totp-step", type=int, default=30, help="TOTP step seconds (RFC 6238: 30)")
        p.add_argument("--stepup-seconds", type=float, default=300)
        p.add_argument("--node-connect-delay", type=float, default=0.0,
                       help="seconds after CreateEnrollment until the node counts as connected"
                            " (-1 = never: links stay empty)")
        p.add_argument("--keep-sessions", action="store_true",
                       help="sessions survive a restart (default: lost, re-login needed)")

    # ------------------------------------------------------------------ setup
    def setup(self):
        a, st = self.args, self.state
        st.setdefault("admin_path", a.admin_path or "".join(secrets.choice(ALNUM) for _ in range(24)))
        if a.admin_path:
            st["admin_path"] = a.admin_path.strip("/")
        st.setdefault("sub_prefix", "".join(secrets.choice(ALNUM) for _ in range(12)))
        st.setdefault("setup_token", a.setup_token or secrets.token_urlsafe(24))
        st.setdefault("setup_created", time.time())
        for k in ("profiles", "nodes", "inbounds", "groups", "users"):
            st.setdefault(k, {})
        st.setdefault("owner", None)
        self.sessions = st.get("sessions", {}) if a.keep_sessions else {}
        self.ceremonies = {}
        self.failures = {}  # login -> [count, locked_until]
        self.admin_buckets, self.public_buckets = {}, {}
        self.sub_windows = FixedWindow(a.sub_max_per_hour, a.sub_window)
        self.sub_cache = {}
        self.save_state()

        ap = re.escape(st["admin_path"])
        self.rpcs = {
            ("AuthService", "BeginSetup"): (self.begin_setup, False, False),
            ("AuthService", "FinishSetup"): (self.finish_setup, False, False),
            ("AuthService", "PasswordLogin"): (self.password_login, False, False),
            ("AuthService", "FinishStepUp"): (self.finish_stepup, True, False),
            ("AuthService", "Me"): (self.me, True, False),
            ("AuthService", "Logout"): (self.logout, True, False),
            ("ProfileService", "ListProtocols"): (self.list_protocols, True, False),
            ("ProfileService", "CreateProfile"): (self.create_profile, True, True),
            ("ProfileService", "CreateInbound"): (self.create_inbound, True, True),
            ("NodeService", "CreateEnrollment"): (self.create_enrollment, True, True),
            ("GroupService", "CreateGroup"): (self.create_group, True, True),
            ("UserService", "CreateUser"): (self.create_user, True, False),
            ("UserService", "ListUsers"): (self.list_users, True, False),
            ("UserService", "DeleteUsers"): (self.delete_users, True, False),
            ("UserService", "GetSubscriptionLink"): (self.get_sub_link, True, True),
        }
        for (svc, meth), (fn, auth, _) in self.rpcs.items():
            self.route("POST", "/%s/%s%s/%s" % (ap, re.escape(API), svc, meth),
                       self._rpc_handler(svc, meth), name="%s/%s" % (svc, meth), admin=auth)
        self.route("GET", "/%s/.*" % ap, self.admin_spa, name="admin_ui")
        self.route("GET", "/%s/(?P<token>[A-Za-z0-9_-]{20,64})" % re.escape(st["sub_prefix"]),
                   self.subscription, name="subscription")
        self.route("GET", "/", self.decoy_root, name="decoy")
        self.route("GET", "/robots.txt", self.robots, name="robots")

    def announce(self):  # after "listening on ...": the `mistgate setup` style lines
        print("Admin URL:  %s" % self.admin_url(), flush=True)
        if not self.state.get("owner"):
            print("Setup link: %ssetup#%s" % (self.admin_url(), self.state["setup_token"]), flush=True)

    def public_url(self):
        return (self.args.public_url or self.base_url()).rstrip("/")

    def admin_url(self):
        return "%s/%s/" % (self.public_url(), self.state["admin_path"])

    def on_session_lost(self):
        self.sessions.clear()
        self._save_sessions()

    def _save_sessions(self):
        if self.args.keep_sessions:
            self.state["sessions"] = self.sessions
            self.save_state()

    # ------------------------------------------------------------- helpers
    def client_key(self, req):
        ip = req.client_ip
        if ip in self.args.trusted_proxy:
            xff = req.header("X-Forwarded-For")
            if xff:
                ip = xff.split(",")[0].strip()
        return ip  # IPv4 address (IPv6 /64 not needed on loopback)

    def _limit(self, req, kind):
        a = self.args
        rate, burst, buckets = ((a.admin_rate, a.admin_burst, self.admin_buckets) if kind == "admin"
                                else (a.public_rate, a.public_burst, self.public_buckets))
        key = self.client_key(req)
        b = buckets.get(key)
        if b is None:
            b = buckets[key] = TokenBucket(rate, burst)
        ok, retry = b.take()
        if ok:
            return None
        return text_response(TOO_MANY_HTML, 429, HTML, {"Retry-After": str(retry)})

    def decoy_404(self):
        time.sleep(0.008)  # notFoundFloor
        return text_response(NOT_FOUND_HTML, 404, HTML)

    def not_found(self, req):
        lim = self._limit(req, "public")
        return lim or self.decoy_404()

    def session(self, req):
        sid = req.cookies.get("__Host-sid")
        return self.sessions.get(sid) if sid else None

    def new_session(self, admin_id):
        sid = secrets.token_urlsafe(32)
        self.sessions[sid] = {"adminId": admin_id, "stepupUntil": 0}
        self._save_sessions()
        cookie = "__Host-sid=%s; Path=/; Max-Age=43200; HttpOnly; Secure; SameSite=Strict" % sid
        return sid, cookie

    def admin_obj(self):
        o = self.state["owner"]
        return {"id": o["id"], "login": o["login"], "displayName": o["displayName"],
                "role": "ROLE_OWNER"}

    def check_totp(self, secret, code, last_step):
        """Returns the step the code matches (current or previous, newer than last_step)."""
        now_step = int(time.time()) // self.args.totp_step
        for s in (now_step, now_step - 1):
            if s > last_step and hmac.compare_digest(totp(secret, s), str(code or "")):
                return s
        return None

    def _rpc_handler(self, svc, meth):
        fn, need_auth, need_stepup = self.rpcs[(svc, meth)]

        def handler(req):
            lim = self._limit(req, "admin")
            if lim:
                return lim
            ctype = (req.header("Content-Type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                return Response(415, b"", {"Accept-Post": "application/json, application/proto"})
            try:
                body = json.loads(req.body or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("not an object")
            except ValueError as e:
                return connect_error("invalid_argument", "unmarshal message: %s" % e)
            sess = self.session(req)
            if need_auth and not sess:
                return connect_error("unauthenticated", "not signed in")
            if need_stepup and sess["stepupUntil"] < time.time():
                return connect_error("permission_denied", "step-up required")
            try:
                return fn(req, body, sess)
            except ConnectError as e:
                return connect_error(e.code, e.message, e.details)
        return handler

    # ----------------------------------------------------------- AuthService
    def begin_setup(self, req, b, sess):
        st = self.state
        if (st["owner"] or b.get("setupToken") != st["setup_token"]
                or time.time() - st["setup_created"] > 1800):
            raise ConnectError("permission_denied", "setup link is invalid, used or expired")
        if b.get("method") != "SETUP_METHOD_PASSWORD":
            raise ConnectError("invalid_argument", "only SETUP_METHOD_PASSWORD is supported by the double")
        login = str(b.get("login", "")).strip().lower()
        if not re.fullmatch(r"[a-z0-9._@-]{3,64}", login):
            raise ConnectError("invalid_argument", "login: 3-64 characters of a-z 0-9 . _ @ -")
        pw = str(b.get("password", ""))
        if not 12 <= len(pw.encode()) <= 256:
            raise ConnectError("invalid_argument", "password: 12-256 bytes")
        secret = base64.b32encode(secrets.token_bytes(20)).decode().rstrip("=")
        cid = secrets.token_urlsafe(16)
        self.ceremonies[cid] = {"login": login, "password": pw, "secret": secret,
                                "displayName": b.get("displayName") or login}
        uri = "otpauth://totp/Mistgate:%s?secret=%s&issuer=Mistgate&algorithm=SHA1&digits=6&period=%d" % (
            urllib.parse.quote(login), secret, self.args.totp_step)
        return json_response({"ceremonyId": cid, "optionsJson": "", "totpUri": uri, "totpSecret": secret})

    def finish_setup(self, req, b, sess):
        st = self.state
        if st["owner"] or b.get("setupToken") != st["setup_token"]:
            raise ConnectError("permission_denied", "setup link is invalid, used or expired")
        c = self.ceremonies.get(b.get("ceremonyId"))
        if not c:
            raise ConnectError("invalid_argument", "unknown ceremony")
        step = self.check_totp(c["secret"], b.get("totpCode"), -1)
        if step is None:
            raise ConnectError("invalid_argument", "wrong code")
        salt = secrets.token_hex(8)
        st["owner"] = {"id": rid("adm_"), "login": c["login"], "displayName": c["displayName"],
                       "salt": salt, "pw": pw_hash(c["password"], salt),
                       "totpSecret": c["secret"], "lastStep": step}
        self.ceremonies.clear()
        self.save_state()
        _, cookie = self.new_session(st["owner"]["id"])
        return json_response({"admin": self.admin_obj()}, cookies=[cookie])

    def password_login(self, req, b, sess):
        o = self.state["owner"]
        login = str(b.get("login", "")).strip().lower()
        f = self.failures.setdefault(login, [0, 0])
        now = time.time()
        if f[1] > now:
            raise ConnectError("unauthenticated", "sign-in failed",
                               sign_in_failure_detail(0, int(f[1])))
        ok = (o is not None and login == o["login"]
              and hmac.compare_digest(pw_hash(str(b.get("password", "")), o["salt"]), o["pw"]))
        step = self.check_totp(o["totpSecret"], b.get("totpCode"), o["lastStep"]) if ok else None
        if step is None:
            f[0] += 1
            if f[0] >= 5:
                f[0], f[1] = 0, now + 900
                raise ConnectError("unauthenticated", "sign-in failed",
                                   sign_in_failure_detail(0, int(f[1])))
            raise ConnectError("unauthenticated", "sign-in failed", sign_in_failure_detail(5 - f[0], 0))
        f[0] = 0
        o["lastStep"] = step
        self.save_state()
        _, cookie = self.new_session(o["id"])
        return json_response({"admin": self.admin_obj()}, cookies=[cookie])

    def finish_stepup(self, req, b, sess):
        o = self.state["owner"]
        step = self.check_totp(o["totpSecret"], b.get("totpCode"), o["lastStep"])
        if step is None:
            raise ConnectError("permission_denied", "wrong or already used code")
        o["lastStep"] = step
        self.save_state()
        sess["stepupUntil"] = time.time() + self.args.stepup_seconds
        self._save_sessions()
        return json_response({})

    def me(self, req, b, sess):
        return json_response({"admin": self.admin_obj()})

    def logout(self, req, b, sess):
        self.sessions.pop(req.cookies.get("__Host-sid"), None)
        self._save_sessions()
        return json_response({}, cookies=["__Host-sid=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict"])

    # -------------------------------------------------- Profile/Node/Group
    def list_protocols(self, req, b, sess):
        return json_response({"protocols": [{
            "id": "hysteria2", "displayName": "Hysteria 2", "settingsSchemaJson": "{}",
            "defaultSettingsJson": json.dumps(HY2_DEFAULTS), "apps": []}]})

    def create_profile(self, req, b, sess):
        if b.get("protocol") != "hysteria2":
            raise ConnectError("invalid_argument", "unknown protocol %r" % b.get("protocol"))
        try:
            settings = json.loads(b.get("settingsJson") or "{}")
        except ValueError:
            raise ConnectError("invalid_argument", "settingsJson is not JSON")
        merged = dict(HY2_DEFAULTS)
        merged.update(settings)
        if (merged.get("obfs") or {}).get("type") == "salamander" and not merged["obfs"].get("password"):
            merged["obfs"] = {"type": "salamander", "password": secrets.token_urlsafe(12)}
        name = str(b.get("name", "")).strip()
        if not name:
            raise ConnectError("invalid_argument", "name is required")
        p = {"id": rid("prf_"), "protocol": "hysteria2", "name": name, "settingsJson": json.dumps(merged)}
        self.state["profiles"][p["id"]] = p
        self.save_state()
        return json_response({"profile": p})

    def create_enrollment(self, req, b, sess):
        name = str(b.get("name", ""))
        if not re.fullmatch(r"[a-z0-9-]{2,24}", name):
            raise ConnectError("invalid_argument", "name: [a-z0-9-]{2,24}")
        if any(n["name"] == name for n in self.state["nodes"].values()):
            raise ConnectError("already_exists", "a node with this name exists")
        ttl = int(b.get("ttlSeconds") or 3600)
        pin = hashlib.sha256(secrets.token_bytes(32)).hexdigest()
        delay = self.args.node_connect_delay
        node = {"id": rid("nod_"), "name": name, "address": b.get("address", ""),
                "countryCode": b.get("countryCode", ""), "state": "NODE_STATE_PENDING",
                "connectAt": (time.time() + delay) if delay >= 0 else None, "certPin": pin}
        self.state["nodes"][node["id"]] = node
        self.save_state()
        token = secrets.token_urlsafe(24)
        sni = "a" + secrets.token_hex(6) + ".invalid"
        ca = "sha256:" + hashlib.sha256(token.encode()).hexdigest()
        panel = urllib.parse.urlsplit(self.public_url()).netloc
        cmd = ("chmod +x /root/mistgate-node && /root/mistgate-node enroll --panel %s --sni %s "
               "--ca-sha256 %s --token %s && /root/mistgate-node install" % (panel, sni, ca, token))
        return json_response({"node": self.node_obj(node), "installCommand": cmd, "caFingerprint": ca,
                              "expiresUnix": str(int(time.time()) + ttl), "copyCommand": ""})

    def node_active(self, node):
        return node["connectAt"] is not None and time.time() >= node["connectAt"]

    def node_obj(self, n):
        return {"id": n["id"], "name": n["name"], "address": n["address"], "countryCode": n["countryCode"],
                "state": "NODE_STATE_ONLINE" if self.node_active(n) else "NODE_STATE_PENDING"}

    def create_inbound(self, req, b, sess):
        p = self.state["profiles"].get(b.get("profileId"))
        n = self.state["nodes"].get(b.get("nodeId"))
        if not p or not n:
            raise ConnectError("not_found", "profile or node not found")
        port = int(b.get("portOverride") or json.loads(p["settingsJson"]).get("port", 443))
        inb = {"id": rid("inb_"), "profileId": p["id"], "nodeId": n["id"], "port": port,
               "tlsServerName": b.get("tlsServerNameOverride") or ""}
        if b.get("validateOnly"):
            return json_response({"inbound": inb, "warnings": [], "freePort": port})
        self.state["inbounds"][inb["id"]] = inb
        self.save_state()
        return json_response({"inbound": inb, "warnings": [], "freePort": port})

    def create_group(self, req, b, sess):
        name = str(b.get("name", "")).strip()
        if not name:
            raise ConnectError("invalid_argument", "name is required")
        if any(g["name"].lower() == name.lower() for g in self.state["groups"].values()):
            raise ConnectError("already_exists", "a group with this name exists")
        pids = list(b.get("profileIds") or [])
        if any(pid not in self.state["profiles"] for pid in pids):
            raise ConnectError("not_found", "profile not found")
        g = {"id": rid("grp_"), "name": name, "profileIds": pids}
        self.state["groups"][g["id"]] = g
        self.save_state()
        return json_response({"group": g})

    # ------------------------------------------------------------ UserService
    def sub_url(self, token):
        return "%s/%s/%s" % (self.public_url(), self.state["sub_prefix"], token)

    def user_obj(self, u):
        return {"id": u["id"], "name": u["name"], "groupId": u["groupId"], "status": "USER_STATUS_ACTIVE",
                "deviceLimit": u["deviceLimit"], "quotaBytes": str(u["quotaBytes"]),
                "createdUnix": str(u["created"])}

    def create_user(self, req, b, sess):
        name = str(b.get("name", "")).strip()
        if not name:
            raise ConnectError("invalid_argument", "name is required")
        if any(u["name"].lower() == name.lower() for u in self.state["users"].values()):
            raise ConnectError("already_exists", "a user with this name already exists")
        if b.get("groupId") not in self.state["groups"]:
            raise ConnectError("not_found", "group not found")
        u = {"id": rid("usr_"), "name": name, "groupId": b["groupId"], "token": secrets.token_urlsafe(32),
             "auth": secrets.token_urlsafe(24), "pagePassword": secrets.token_hex(4),
             "deviceLimit": int(b.get("deviceLimit") or 5), "quotaBytes": int(b.get("quotaBytes") or 0),
             "created": int(time.time())}
        self.state["users"][u["id"]] = u
        self.save_state()
        return json_response({"user": self.user_obj(u), "subscriptionUrl": self.sub_url(u["token"]),
                              "pagePassword": u["pagePassword"]})

    def list_users(self, req, b, sess):
        size = int(b.get("pageSize") or 50)
        size = max(1, min(size, 200))
        users = sorted(self.state["users"].values(), key=lambda u: (u["created"], u["id"]))
        if b.get("groupId"):
            users = [u for u in users if u["groupId"] == b["groupId"]]
        if b.get("query"):
            users = [u for u in users if str(b["query"]).lower() in u["name"].lower()]
        start = int(b.get("pageToken") or 0)
        page = users[start:start + size]
        nxt = str(start + size) if start + size < len(users) else ""
        return json_response({"users": [self.user_obj(u) for u in page], "nextPageToken": nxt,
                              "total": len(users)})

    def delete_users(self, req, b, sess):
        for uid in b.get("userIds") or []:
            self.state["users"].pop(uid, None)
        self.save_state()
        return json_response({})

    def get_sub_link(self, req, b, sess):
        u = self.state["users"].get(b.get("userId"))
        if not u:
            raise ConnectError("not_found", "user not found")
        if b.get("rotate"):
            u["token"] = secrets.token_urlsafe(32)
            self.save_state()
        return json_response({"url": self.sub_url(u["token"]), "pagePassword": u["pagePassword"]})

    # ----------------------------------------------------------- public side
    def admin_spa(self, req):
        return self._limit(req, "admin") or text_response(ADMIN_SPA_HTML, 200, HTML)

    def decoy_root(self, req):
        return self._limit(req, "public") or text_response(COMING_SOON_HTML, 200, HTML)

    def robots(self, req):
        return self._limit(req, "public") or text_response("User-agent: *\nAllow: /\n", 200)

    def user_lines(self, u):
        g = self.state["groups"].get(u["groupId"]) or {"profileIds": []}
        lines = []
        for inb in sorted(self.state["inbounds"].values(), key=lambda i: i["id"]):
            node = self.state["nodes"].get(inb["nodeId"])
            prof = self.state["profiles"].get(inb["profileId"])
            if not node or not prof or prof["id"] not in g["profileIds"] or not self.node_active(node):
                continue
            s = json.loads(prof["settingsJson"])
            q = [("sni", inb["tlsServerName"] or node["name"] + ".mistgate.invalid"),
                 ("insecure", "1"), ("pinSHA256", node["certPin"])]
            obfs = s.get("obfs") or {}
            if obfs.get("type") == "salamander":
                q += [("obfs", "salamander"), ("obfs-password", obfs.get("password", ""))]
            lines.append("hysteria2://%s@%s:%d/?%s#%s" % (
                urllib.parse.quote(u["auth"], safe=""), node["address"], inb["port"],
                urllib.parse.urlencode(q), urllib.parse.quote(node["name"])))
        return lines

    def subscription(self, req):
        lim = self._limit(req, "public")
        if lim:
            return lim
        token = req.params["token"]
        user = next((u for u in self.state["users"].values() if u["token"] == token), None)
        cached = self.sub_cache.get(token)
        now = time.time()
        if user is None and not (cached and now - cached[0] < self.args.sub_cache_seconds):
            self.sub_cache.pop(token, None)
            return self.decoy_404()  # unknown / deleted / rotated link: the decoy's 404
        ok, retry = self.sub_windows.hit(token)
        if not ok:
            return text_response("too many requests\n", 429,
                                 headers={"Retry-After": str(retry), "X-Content-Type-Options": "nosniff"})
        ua = (req.header("User-Agent") or "").lower()
        if "mozilla" in ua and "accept" in req._lower and "text/html" in req.header("Accept", ""):
            return text_response("<!doctype html><title>Subscription</title><p>user page</p>", 200, HTML)
        if cached and now - cached[0] < self.args.sub_cache_seconds:
            view = cached[1]
        else:
            view = {"name": user["name"], "lines": self.user_lines(user), "quota": user["quotaBytes"]}
            if self.args.sub_cache_seconds > 0:
                self.sub_cache[token] = (now, view)
        body = base64.b64encode("\n".join(view["lines"]).encode()).decode()
        hdrs = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                "Profile-Title": "base64:" + base64.b64encode(b"Mistgate").decode(),
                "Subscription-Userinfo": "upload=0; download=0; total=%d; expire=0" % view["quota"],
                "Profile-Update-Interval": "12",
                "Profile-Web-Page-Url": self.sub_url(token)}
        return text_response(body, 200, headers=hdrs)


if __name__ == "__main__":
    run_double(MistgateDouble)
