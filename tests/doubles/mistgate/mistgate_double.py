#!/usr/bin/env python3
"""Mistgate panel test double (test infrastructure only; see ../README.md).

Checked against Mistgate's source (Mistgate/mistgate, read through the stored index; it cannot be built here):
  * internal/panel/auth/middleware.go  no session: 401 {"code":"unauthenticated","message":"not signed in"};
    the public procedures (setup, sign-in, logout) need none.
  * internal/panel/auth/policy.go, stepup.go  only own-account, security, provisioning, update, WARP, token,
    approval and backup calls need a step-up; signing in counts as one (the session starts with StepUpAt = its
    creation) and it lasts 5 minutes. Without it: 403 permission_denied "confirm it is you first (step-up
    required)" with a mistgate.admin.v1.StepUpRequired detail. FinishStepUp with a wrong or used code: 401
    unauthenticated "step-up failed"; five failures within an hour lock step-up for 15 minutes (then 429
    resource_exhausted "too many wrong attempts, try again later"). Of these calls the double serves
    AuthService/EndOtherSessions.
  * internal/panel/auth/service.go, handler.go  sessions live in the database (they survive a restart); the
    setup token lives 30 minutes (403 "setup link is invalid or expired"); PasswordLogin failures carry a
    SignInFailure detail and five lock the login for 15 minutes; Admin is {id, displayName, role}.
  * cmd/mistgate/setup.go  `mistgate setup` may be re-run: it keeps the settings and issues a fresh setup link
    while no admin exists ("An admin already exists; no setup link issued." afterwards).
  * internal/panel/access/user_rpc.go  a taken user name is already_exists "name_taken"; DeleteUsers with
    unknown ids answers 200 {}. The switch, UpdateUser and GetUser: see user_changes.py.
  * the node agent side: see agent_side.py.
  * what the admin UI polls while its Overview is open (FleetService/Overview, NodeService/ListNodes,
    ProfileService/ListProfiles, ApprovalService/ListApprovals): see overview_side.py.
Not modelled: passkeys, Turnstile, the auth rate bucket (10 calls, one more every 3 s) and the per-address
sign-in lock.

Serve:  python3 mistgate_double.py [serve] --port 18080 --state-dir /tmp/mg [--setup-on-start]
Setup:  python3 mistgate_double.py setup --state-dir /tmp/mg --public-url http://localhost:18080
Setup prints what `mistgate setup` prints:
    Admin URL:  http://localhost:PORT/<24 chars>/
    Setup link: http://localhost:PORT/<24 chars>/setup#<token>      (while no owner exists)
With --setup-on-start the serve process issues and prints the setup link itself (setup combined with serve).
"""

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common.panel_double import (  # noqa: E402
    FixedWindow, PanelDouble, Response, TokenBucket, json_response, run_double,
    text_response)
from connect_wire import (  # noqa: E402
    ConnectError, connect_error, request_message, sign_in_failure, step_up_required, totp)
from agent_side import AgentSide  # noqa: E402
from overview_side import OverviewSide  # noqa: E402
from user_changes import UserChanges, user_status  # noqa: E402

API = "api/mistgate.admin.v1."
ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"

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


SETUP_TTL = 1800            # auth.SetupTokenTTL
STEP_UP_WINDOW = 300        # auth.StepUpWindow
FAILURE_WINDOW = 3600       # auth.FailureWindow
LOCK_SECONDS = 900          # auth.LockDuration
MAX_FAILURES = 5            # auth.MaxSignInFailures


def pw_hash(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), 1000).hex()


def rid(prefix):
    return prefix + secrets.token_hex(8)


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def write_json(path, obj):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(obj, f)
    os.replace(tmp, path)


class SetupTokens:
    """The setup token in <state dir>/setup-token.json, shared by `setup` and the serving process the way
    Mistgate's database is (cmd/mistgate/setup.go runs beside a running panel). Only its hash is kept."""

    def __init__(self, state_dir):
        self.path = os.path.join(state_dir, "setup-token.json") if state_dir else None
        self.memory = {}

    def issue(self, ttl, token=None):
        token = token or secrets.token_urlsafe(32)
        entry = {"hash": sha(token), "expires": time.time() + ttl}
        if self.path:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            write_json(self.path, entry)
        self.memory = entry
        return token

    def valid(self, token):
        entry = self.memory
        if self.path and os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                entry = json.load(f)
        return bool(entry) and hmac.compare_digest(entry["hash"], sha(str(token or ""))) and \
            entry["expires"] > time.time()

    def consume(self):
        self.memory = {}
        if self.path and os.path.exists(self.path):
            os.remove(self.path)


class Failures:
    """login_failure rows: failures within FAILURE_WINDOW; MAX_FAILURES lock the key for LOCK_SECONDS."""

    def __init__(self, table):
        self.table = table

    def locked_until(self, key):
        f = self.table.get(key)
        return f["locked"] if f and f["locked"] > time.time() else 0

    def record(self, key):
        now = time.time()
        f = self.table.get(key)
        if not f or now - f["first"] > FAILURE_WINDOW:
            f = self.table[key] = {"count": 0, "first": now, "locked": 0}
        f["count"] += 1
        if f["count"] >= MAX_FAILURES:
            f["locked"] = now + LOCK_SECONDS
        return f

    def clear(self, key):
        self.table.pop(key, None)


class MistgateDouble(UserChanges, AgentSide, OverviewSide, PanelDouble):
    name = "mistgate"

    @classmethod
    def add_arguments(cls, p):
        p.add_argument("--public-url", help="default: what `setup` stored, else http://127.0.0.1:PORT")
        p.add_argument("--admin-path", help="24-char admin path (default random, persisted)")
        p.add_argument("--setup-on-start", action="store_true",
                       help="issue and print the setup link at start while no owner exists (setup combined with serve)")
        p.add_argument("--setup-token", help="with --setup-on-start: this token instead of a random one")
        p.add_argument("--setup-ttl", type=float, default=SETUP_TTL, help="seconds a setup link lives (30 min)")
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
        p.add_argument("--stepup-seconds", type=float, default=STEP_UP_WINDOW)
        cls.add_agent_arguments(p)

    # ------------------------------------------------------------------ setup
    def setup(self):
        a, st = self.args, self.state
        init_state(st, a.admin_path, a.public_url)
        self.setup_tokens = SetupTokens(a.state_dir)
        self.sessions = st["sessions"]          # hash of the cookie -> session; kept in the state (the database)
        self.failures = Failures(st["login_failures"])
        self.ceremonies = {}
        self.admin_buckets, self.public_buckets = {}, {}
        self.sub_windows = FixedWindow(a.sub_max_per_hour, a.sub_window)
        self.sub_cache = {}
        self.setup_agent_side()
        self.save_state()

        ap = re.escape(st["admin_path"])
        # (handler, needs a session, needs a step-up): policy.go and the handlers that call RequireStepUp
        self.rpcs = {
            ("AuthService", "GetLoginInfo"): (self.get_login_info, False, False),
            ("AuthService", "BeginSetup"): (self.begin_setup, False, False),
            ("AuthService", "FinishSetup"): (self.finish_setup, False, False),
            ("AuthService", "PasswordLogin"): (self.password_login, False, False),
            ("AuthService", "Logout"): (self.logout, False, False),
            ("AuthService", "FinishStepUp"): (self.finish_stepup, True, False),
            ("AuthService", "Me"): (self.me, True, False),
            ("AuthService", "EndOtherSessions"): (self.end_other_sessions, True, True),
            ("ProfileService", "ListProtocols"): (self.list_protocols, True, False),
            ("ProfileService", "CreateProfile"): (self.create_profile, True, False),
            ("ProfileService", "CreateInbound"): (self.create_inbound, True, False),
            ("NodeService", "CreateEnrollment"): (self.create_enrollment, True, False),
            ("GroupService", "CreateGroup"): (self.create_group, True, False),
            ("UserService", "CreateUser"): (self.create_user, True, False),
            ("UserService", "ListUsers"): (self.list_users, True, False),
            ("UserService", "DeleteUsers"): (self.delete_users, True, False),
            ("UserService", "GetSubscriptionLink"): (self.get_sub_link, True, False),
            **self.user_change_rpcs(),
            **self.overview_rpcs(),
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
        if self.args.setup_on_start and not self.state.get("owner"):
            token = self.setup_tokens.issue(self.args.setup_ttl, self.args.setup_token)
            print("Setup link: %ssetup#%s" % (self.admin_url(), token), flush=True)

    def public_url(self):
        return (self.args.public_url or self.state.get("public_url") or self.base_url()).rstrip("/")

    def admin_url(self):
        return "%s/%s/" % (self.public_url(), self.state["admin_path"])

    def on_session_lost(self):
        self.sessions.clear()
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
        return self.sessions.get(sha(sid)) if sid else None

    def new_session(self, admin_id):
        sid = secrets.token_urlsafe(32)
        now = time.time()
        self.sessions[sha(sid)] = {"adminId": admin_id, "created": now, "stepUpAt": now}  # signing in counts
        self.save_state()
        cookie = "__Host-sid=%s; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict" % sid
        return sid, cookie

    def admin_obj(self):
        o = self.state["owner"]
        return {"id": o["id"], "displayName": o["displayName"], "role": "ROLE_OWNER"}

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
            body, refused = request_message(req)
            if refused:
                return refused
            sess = self.session(req)
            if need_auth and not sess:
                return connect_error("unauthenticated", "not signed in")
            if need_stepup and sess["stepUpAt"] + self.args.stepup_seconds < time.time():
                return connect_error("permission_denied", "confirm it is you first (step-up required)",
                                     step_up_required(passkey=False, totp=True))
            try:
                return fn(req, body, sess)
            except ConnectError as e:
                return connect_error(e.code, e.message, e.details)
        return handler

    # ----------------------------------------------------------- AuthService
    def get_login_info(self, req, b, sess):
        info = {"brandHead": "Mist", "brandTail": "gate", "accent": "#4f46e5", "language": "en"}
        if not self.state["owner"]:
            info["setupOpen"] = True
        else:
            info["passwordLogin"] = True
        return json_response(info)

    def begin_setup(self, req, b, sess):
        if self.state["owner"] or not self.setup_tokens.valid(b.get("setupToken")):
            raise ConnectError("permission_denied", "setup link is invalid or expired")
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
        self.ceremonies[cid] = {"login": login, "password": pw, "secret": secret, "token": b["setupToken"],
                                "displayName": (b.get("displayName") or "").strip() or "Owner", "tries": 0}
        uri = "otpauth://totp/Mistgate:%s?secret=%s&issuer=Mistgate&algorithm=SHA1&digits=6&period=%d" % (
            urllib.parse.quote(login), secret, self.args.totp_step)
        return json_response({"ceremonyId": cid, "totpUri": uri, "totpSecret": secret})

    def finish_setup(self, req, b, sess):
        st = self.state
        c = self.ceremonies.pop(b.get("ceremonyId"), None)
        if not c:
            raise ConnectError("invalid_argument", "registration expired, start again")
        if st["owner"] or c["token"] != b.get("setupToken") or not self.setup_tokens.valid(b.get("setupToken")):
            raise ConnectError("permission_denied", "setup link is invalid or expired")
        step = self.check_totp(c["secret"], b.get("totpCode"), -1)
        if step is None:
            c["tries"] += 1
            if c["tries"] < 5:  # maxSetupCodeTries
                self.ceremonies[b["ceremonyId"]] = c
            raise ConnectError("invalid_argument", "invalid code")
        salt = secrets.token_hex(8)
        st["owner"] = {"id": rid("adm_"), "login": c["login"], "displayName": c["displayName"],
                       "salt": salt, "pw": pw_hash(c["password"], salt),
                       "totpSecret": c["secret"], "lastStep": step}
        self.ceremonies.clear()
        self.setup_tokens.consume()
        self.save_state()
        _, cookie = self.new_session(st["owner"]["id"])
        return json_response({"admin": self.admin_obj()}, cookies=[cookie])

    def password_login(self, req, b, sess):
        o = self.state["owner"]
        login = str(b.get("login", "")).strip().lower()
        locked = self.failures.locked_until(login)
        if locked:
            raise ConnectError("unauthenticated", "sign-in failed", sign_in_failure(0, int(locked)))
        ok = (o is not None and login == o["login"]
              and hmac.compare_digest(pw_hash(str(b.get("password", "")), o["salt"]), o["pw"]))
        step = self.check_totp(o["totpSecret"], b.get("totpCode"), o["lastStep"]) if ok else None
        if step is None:
            f = self.failures.record(login)
            self.save_state()
            if f["locked"]:
                raise ConnectError("unauthenticated", "sign-in failed", sign_in_failure(0, int(f["locked"])))
            raise ConnectError("unauthenticated", "sign-in failed",
                               sign_in_failure(MAX_FAILURES - f["count"], 0))
        self.failures.clear(login)
        o["lastStep"] = step
        self.save_state()
        _, cookie = self.new_session(o["id"])
        return json_response({"admin": self.admin_obj()}, cookies=[cookie])

    def finish_stepup(self, req, b, sess):
        o = self.state["owner"]
        key = "stepup:" + o["id"]
        if self.failures.locked_until(key):
            raise ConnectError("resource_exhausted", "too many wrong attempts, try again later")
        step = self.check_totp(o["totpSecret"], b.get("totpCode"), o["lastStep"])
        if step is None:
            self.failures.record(key)
            self.save_state()
            raise ConnectError("unauthenticated", "step-up failed")
        o["lastStep"] = step
        now = time.time()
        sess["stepUpAt"] = now
        self.failures.clear(key)
        self.save_state()
        return json_response({"stepUpUntilUnix": str(int(now + self.args.stepup_seconds))})

    def me(self, req, b, sess):
        out = {"admin": self.admin_obj(), "version": "double"}
        until = sess["stepUpAt"] + self.args.stepup_seconds
        if until > time.time():
            out["stepUpUntilUnix"] = str(int(until))
        return json_response(out)

    def logout(self, req, b, sess):
        sid = req.cookies.get("__Host-sid")
        if sid:
            self.sessions.pop(sha(sid), None)
            self.save_state()
        return json_response({}, cookies=["__Host-sid=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict"])

    def end_other_sessions(self, req, b, sess):
        mine = sha(req.cookies.get("__Host-sid"))
        others = [k for k in self.sessions if k != mine]
        for k in others:
            del self.sessions[k]
        self.save_state()
        return json_response({"ended": len(others)} if others else {})

    # -------------------------------------------------- Profile/Node/Group
    def list_protocols(self, req, b, sess):
        return json_response({"protocols": [{
            "id": "hysteria2", "displayName": "Hysteria 2", "settingsSchemaJson": "{}",
            "defaultSettingsJson": json.dumps(HY2_DEFAULTS), "apps": ["APP_HAPP"]}]})

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
        # CreateProfileResponse carries a ProfileSummary (profile.proto): no settings
        return json_response({"profile": self.profile_view(p)})

    def create_inbound(self, req, b, sess):
        p = self.state["profiles"].get(b.get("profileId"))
        n = self.state["nodes"].get(b.get("nodeId"))
        if not p or not n:
            raise ConnectError("not_found", "profile or node not found")
        port = int(b.get("portOverride") or json.loads(p["settingsJson"]).get("port", 443))
        inb = {"id": rid("inb_"), "profileId": p["id"], "nodeId": n["id"], "port": port,
               "tlsServerName": b.get("tlsServerNameOverride") or ""}
        if not b.get("validateOnly"):
            self.state["inbounds"][inb["id"]] = inb
            self.inbounds_changed(n["id"])
            self.save_state()
        view = {"id": inb["id"], "profileId": p["id"], "profileName": p["name"], "protocol": "hysteria2",
                "nodeId": n["id"], "nodeName": n["name"], "port": port,
                "tlsServerName": inb["tlsServerName"] or n["address"], "state": "INBOUND_STATE_PENDING",
                "egress": "direct"}
        out = {"inbound": view}
        if b.get("validateOnly"):
            out["freePort"] = port  # CreateInboundResponse.free_port: 0 (left out) unless validate_only
        return json_response(out)

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
        """adminv1.User as protojson writes it: zero values are left out, 64-bit integers are strings."""
        g = self.state["groups"].get(u["groupId"]) or {}
        out = {"id": u["id"], "name": u["name"], "groupId": u["groupId"], "groupName": g.get("name", ""),
               "status": user_status(u), "apps": {"happ": True, "amnezia": True},
               "deviceLimit": u["deviceLimit"], "quotaReset": "QUOTA_RESET_MONTH",
               "nextResetUnix": str(u["created"] + 30 * 86400), "nodes": {"all": True},
               "createdUnix": str(u["created"])}
        if u["quotaBytes"]:
            out["quotaBytes"] = str(u["quotaBytes"])
        return out

    def create_user(self, req, b, sess):
        name = str(b.get("name", "")).strip()
        if not name:
            raise ConnectError("invalid_argument", "name is required")
        if any(u["name"].lower() == name.lower() for u in self.state["users"].values()):
            raise ConnectError("already_exists", "name_taken")
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
        users = sorted(self.state["users"].values(), key=lambda u: (u["name"].lower(), u["id"]))
        if b.get("groupId"):
            users = [u for u in users if u["groupId"] == b["groupId"]]
        if b.get("query"):
            users = [u for u in users if str(b["query"]).lower() in u["name"].lower()]
        after = ""
        if b.get("pageToken"):
            try:
                after = base64.urlsafe_b64decode(b["pageToken"] + "=" * (-len(b["pageToken"]) % 4)).decode()
            except ValueError:
                raise ConnectError("invalid_argument", "bad page token")
        page = [u for u in users if u["name"].lower() > after][:size + 1]
        out = {"counts": {"all": len(self.state["users"])} if self.state["users"] else {}}
        if page[:size]:
            out["users"] = [self.user_obj(u) for u in page[:size]]
        if len(page) > size:
            out["nextPageToken"] = base64.urlsafe_b64encode(page[size - 1]["name"].lower().encode()).decode().rstrip("=")
        return json_response(out)

    def delete_users(self, req, b, sess):
        ids = b.get("userIds") or []
        if not ids:
            raise ConnectError("invalid_argument", "no users given")
        for uid in ids:  # unknown ids are no error (user_rpc.go DeleteUsers)
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
            if not node or not prof or prof["id"] not in g["profileIds"] or not inb.get("certPin"):
                continue  # sub.go: no line until the node reported the certificate it serves
            s = json.loads(prof["settingsJson"])
            q = [("sni", inb["tlsServerName"] or node["name"] + ".mistgate.invalid"),
                 ("insecure", "1"), ("pinSHA256", inb["certPin"])]
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
            lines = self.user_lines(user) if user_status(user) == "USER_STATUS_ACTIVE" else []  # sub.go
            view = {"name": user["name"], "lines": lines, "quota": user["quotaBytes"]}
            if self.args.sub_cache_seconds > 0:
                self.sub_cache[token] = (now, view)
        body = base64.b64encode("\n".join(view["lines"]).encode()).decode()
        hdrs = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                "Profile-Title": "base64:" + base64.b64encode(b"Mistgate").decode(),
                "Subscription-Userinfo": "upload=0; download=0; total=%d; expire=0" % view["quota"],
                "Profile-Update-Interval": "12",
                "Profile-Web-Page-Url": self.sub_url(token)}
        return text_response(body, 200, headers=hdrs)


def init_state(st, admin_path=None, public_url=None):
    """The settings `mistgate setup` stores once (admin path, subscription prefix, public URL) and the tables."""
    if admin_path:
        st["admin_path"] = admin_path.strip("/")
    st.setdefault("admin_path", "".join(secrets.choice(ALNUM) for _ in range(24)))
    st.setdefault("sub_prefix", "".join(secrets.choice(ALNUM) for _ in range(12)))
    if public_url and not st.get("public_url"):
        st["public_url"] = public_url.rstrip("/")
    for k in ("profiles", "nodes", "inbounds", "groups", "users", "sessions", "login_failures"):
        st.setdefault(k, {})
    st.setdefault("owner", None)


def run_setup(argv):
    """`mistgate setup` (cmd/mistgate/setup.go): keeps an existing configuration, issues a fresh setup link
    while no admin exists. Safe to run while the serving process runs: it writes only the setup token."""
    import argparse
    p = argparse.ArgumentParser(prog="mistgate_double.py setup")
    p.add_argument("--state-dir", required=True)
    p.add_argument("--public-url", required=True)
    p.add_argument("--admin-path")
    p.add_argument("--setup-ttl", type=float, default=SETUP_TTL)
    a = p.parse_args(argv)
    path = os.path.join(a.state_dir, "state.json")
    os.makedirs(a.state_dir, exist_ok=True)
    st = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            st = json.load(f)
        print("Already configured; keeping the existing settings.")
    else:
        init_state(st, a.admin_path, a.public_url)
        write_json(path, st)
    admin_url = "%s/%s/" % (st.get("public_url") or a.public_url.rstrip("/"), st["admin_path"])
    print("Data dir:   %s" % a.state_dir)
    print("Admin URL:  %s" % admin_url)
    if st.get("owner"):
        print("An admin already exists; no setup link issued.")
        return
    token = SetupTokens(a.state_dir).issue(a.setup_ttl)
    print("Setup link: %ssetup#%s" % (admin_url, token))
    print("The link works once and expires in %d minutes." % int(a.setup_ttl // 60))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["setup"]:
        run_setup(args[1:])
    else:
        run_double(MistgateDouble, args[1:] if args[:1] == ["serve"] else args)
