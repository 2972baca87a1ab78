#!/usr/bin/env python3
"""PasarGuard admin-API test double (test infrastructure only, stdlib only).

Behaves like PasarGuard/panel v5.x (FastAPI; checked against the real v5.2.1 run
from its source, tests/real-panels/pasarguard-from-source.md) as its source at
v5.2.1 says (github.com/PasarGuard/panel: app/routers/, app/models/, app/subscription/)
and tests/data/seed-harness/HARNESS.md §1.3/§1.4. Built on tests/doubles/common/panel_double.py.

    python3 tests/doubles/pasarguard/pasarguard_double.py --port 0 [--state-dir D]
        [--capture F] [--url-prefix ""]

Owner bootstrap needs a one-time temp key, as with `pasarguard cli generate-temp-key`
(B1): run tests/doubles/pasarguard/pasarguard_cli.py generate-temp-key
  --state-dir D   writes the key into D/temp_keys.json (the "database"), or
  --url BASE      asks a running double (POST /__double/temp-key).
It prints "Temp key: <uuid4>" (the harness parses `Temp key: (\\S+)`). Keys are
valid 5 minutes and single use.

What it models (reference section in brackets):
  * GET / -> 200 HTML home page (the harness readiness URL), GET /health ->
    {"status":"ok"} [B7].
  * POST /api/setup/owner {key,username,password} -> 201 AdminDetails; 409 "owner
    already exists"; 400 "invalid key"; 410 "key already used"/"key expired";
    422 for the password policy. PATCH /api/setup/owner {key,password} [B1].
  * POST /api/admin/token, form-encoded -> 200 {access_token, token_type:"bearer"};
    401 "Incorrect username or password"; JSON body -> 422 (missing form fields) [B2].
  * Bearer JWT (HS256, secret in state: survives a restart) on every /api route
    except setup/token; otherwise 401 {"detail":"Could not validate credentials"}
    with WWW-Authenticate: Bearer [B2]. Errors are {"detail": ...}; 422 is
    {"detail": {"<field>": "<msg>"}} [B3]. Unknown path -> 404 {"detail":"Not Found"}.
  * Default core config id 1 with inbound "Shadowsocks TCP" (port 1080) [B1];
    GET /api/inbounds, GET /api/cores, POST /api/group (201; unknown tag -> 400
    "<tag> not found"), POST /api/host/ (201; POST /api/host -> 307 to /api/host/) [B4].
  * POST /api/core {name, config, ...} -> 201 CoreResponse; what app/core/xray.py's
    XRayConfig refuses -> 400 {"detail": <its message>}: no inbounds or outbounds, a
    tag missing or with "," or "<=>", an inbound without port, a hysteria inbound
    without TLS, a TLS certificateFile the panel cannot open (it reads and inlines
    the files) or without keyFile; an empty config -> 422.
  * POST /api/user -> 201 UserResponse with generated proxy_settings and a RELATIVE
    subscription_url "/sub/<token>" (default url_prefix ""), a fresh token on every
    user response; duplicate -> 409 "User already exists"; 422 dict errors.
    GET/DELETE /api/user/{username} and /api/user/by-id/{id} (204; 404 "User not
    found"); GET /api/users (subscription_url "" unless load_sub=true);
    POST /api/user/{username}/revoke_sub [B5, B6]; PUT /api/user/by-id/{id} (UserModify:
    status active|on_hold|disabled, data_limit; left out = unchanged; used_traffic stays
    0, the double carries no traffic). Ids are SQLite rowids: a deleted
    user's id is given to the next user when it was the highest.
  * GET /sub/{token} (also trailing "/", HEAD): catch-all UA -> links_base64
    (text/plain, standard base64 of links joined by "\\n"), one
    ss://base64(method:password)@address:port#remark per host of the user's groups,
    hysteria2://<proxy_settings.hysteria.auth>@address:port?fm=..&sni=..&fp=..&pcs=..
    &pinSHA256=..#remark on a hysteria inbound (app/subscription/links.py
    _build_hysteria, values from app/core/hosts.py: the host's sni, fingerprint,
    pinned_peer_cert_sha256 and final_mask_settings over the inbound's, no fp for a
    host with the default fingerprint, as seen on v5.2.1; the double
    does not read a certificate's SANs, the inbound's own sni list when the host
    has none);
    no host -> 200 empty body; unknown/forged/revoked token or deleted user -> 404
    {"detail":"Not Found"}; /sub/{token}/links, /links_base64, /info [B6].
  * Nodes (pasarguard_nodes.py): GET /api/nodes, POST /api/node, GET and PUT
    /api/node/{id}; the double connects to a node as the panel does (TLS
    trusting server_ca, the API key) and reports connected or error.
  * restart: with --state-dir everything persists (users, owner, groups, hosts, JWT
    secret, subscription secret). Fault 401-after-restart rotates the admin JWT
    secret (all admin tokens -> 401) [B8].
"""

import base64
import datetime
import fcntl
import hashlib
import hmac
import json
import math
import os
import random
import re
import secrets
import sys
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common.panel_double import (  # noqa: E402
    PanelDouble, Response, empty_response, json_response, run_double, text_response)
from pasarguard_nodes import NodesMixin  # noqa: E402
from pasarguard_system import SystemMixin  # noqa: E402

TEMP_KEY_TTL = 300
SS_METHOD = "chacha20-ietf-poly1305"
USERNAME_RE = re.compile(r"^[a-zA-Z0-9-_@.]+$")
STATUSES = ("active", "disabled", "limited", "expired", "on_hold")
RESET_STRATEGIES = ("no_reset", "day", "week", "month", "year")
UA_RULES = [  # migration 9af04c077ede defaults; first re.match wins [B6]
    (re.compile(r"^(?:FlClashX?|Flowvy|[Cc]lash(?:-(?:[Vv]erge|nyanpasu)|X [Mm]eta|-?[Mm]eta)|"
                r"[Kk]oala-[Cc]lash|[Mm](?:urge|ihomo)|prizrak-box|clash\.meta)"), "clash_meta"),
    (re.compile(r"^([Cc]lash|[Ss]tash)"), "clash"),
    (re.compile(r"^(SFA|SFI|SFM|SFT|[Kk]aring|[Hh]iddify[Nn]ext)|.*[Ss]ing[\-b]?ox.*"),
     "sing_box"),
    (re.compile(r"^(SS|SSR|SSD|SSS|Outline|Shadowsocks|SSconf)"), "outline"),
    (re.compile(r"^[Ii]n[Hh]ive"), "xray"),
    (re.compile(r"^.*"), "links_base64"),
]


# The seeded owner role (admin_roles id 1) as the real v5.2.1 returns it.
OWNER_ROLE = json.loads(
    '{"id":1,"name":"owner","is_owner":true,"permissions":{"users":{"create":true,"read":'
    '{"scope":2},"read_simple":{"scope":2},"update":{"scope":2},"delete":{"scope":2},"res'
    'et_usage":{"scope":2},"revoke_sub":{"scope":2},"set_owner":true,"activate_next_plan"'
    ':{"scope":2}},"admins":{"create":true,"read":true,"read_simple":true,"update":true,"'
    'delete":true,"reset_usage":true},"nodes":{"create":true,"read":true,"read_simple":tr'
    'ue,"update":true,"delete":true,"reconnect":true,"update_core":true,"logs":true,"stat'
    's":true},"groups":{"create":true,"read":true,"read_simple":true,"update":true,"delet'
    'e":true},"hosts":{"create":true,"read":true,"update":true},"templates":{"create":tru'
    'e,"read":true,"read_simple":true,"update":true,"delete":true},"client_templates":{"c'
    'reate":true,"read":true,"read_simple":true,"update":true,"delete":true},"cores":{"cr'
    'eate":true,"read":true,"read_simple":true,"update":true,"delete":true},"settings":{"'
    'read":true,"read_general":true,"update":true},"system":{"read":true},"hwids":{"read"'
    ':true,"delete":true},"admin_roles":{"create":true,"read":true,"read_simple":true,"up'
    'date":true,"delete":true},"api_keys":{"create":true,"read":{"scope":2},"read_simple"'
    ':{"scope":2},"update":{"scope":2},"delete":{"scope":2}}},"limits":{"max_users":null,'
    '"data_limit_min":null,"data_limit_max":null,"expire_min":null,"expire_max":null,"min'
    '_hwid_per_user":null,"max_hwid_per_user":null,"on_hold_timeout_min":null,"on_hold_timeo'
    'ut_max":null},"features":{"can_use_reset_strategy":'
    'true,"can_use_next_plan":true},"access":{"require_template":false,"allowed_template_'
    'ids":null,"allowed_group_ids":null},"disabled_when_limited":false,"disconnect_users_'
    'when_limited":true,"hwid":{"enabled":true,"forced":false,"fallback_limit":null,"min_'
    'limit":null,"max_limit":null,"mode":"use_global","require_hwid_for_manual_sub":false},'
    '"disconnect_users_when_disabled":t'
    'rue}')


def utcnow_iso():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None).isoformat()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_dec(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def jwt_sign(payload, secret):
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(secret.encode(), (head + "." + body).encode(), hashlib.sha256).digest()
    return head + "." + body + "." + b64url(sig)


def jwt_verify(token, secret):
    try:
        head, body, sig = token.split(".")
        want = hmac.new(secret.encode(), (head + "." + body).encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(b64url(want), sig):
            return None
        payload = json.loads(b64url_dec(body))
    except (ValueError, TypeError):
        return None
    if payload.get("exp") is not None and payload["exp"] <= time.time():
        return None
    return payload


def pw_hash(password, salt=None):
    salt = salt or secrets.token_hex(8)
    return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()


def pw_check(password, stored):
    return hmac.compare_digest(pw_hash(password, stored.split("$", 1)[0]), stored)


def password_policy(value, username=None):
    """app/models/validators.py PasswordValidator (v5)."""
    errors = []
    if len(value.encode("utf-8")) > 72:
        errors.append("Password too long: maximum 72 bytes when UTF-8 encoded")
    if len(value) < 12:
        errors.append("Password must be at least 12 characters long")
    if len(re.findall(r"\d", value)) < 2:
        errors.append("Password must contain at least 2 digits")
    if len(re.findall(r"[A-Z]", value)) < 2:
        errors.append("Password must contain at least 2 uppercase letters")
    if len(re.findall(r"[a-z]", value)) < 2:
        errors.append("Password must contain at least 2 lowercase letters")
    if not re.search(r"[!@#$%^&*()\-_=+\[\]{}|;:,.<>?/~`]", value):
        errors.append("Password must contain at least one special character")
    if username and username.lower() in value.lower():
        errors.append("Password cannot contain the username")
    if '"' in value:
        errors.append('Password cannot contain the double quote (") character')
    return errors


# ----- temp keys: shared with pasarguard_cli.py through <state-dir>/temp_keys.json ----------
def _keys_path(state_dir):
    return os.path.join(state_dir, "temp_keys.json")


def with_temp_keys(state_dir, fn):
    """Run fn(keys_list) under an exclusive flock; fn may mutate the list."""
    os.makedirs(state_dir, exist_ok=True)
    path = _keys_path(state_dir)
    with open(path + ".lock", "a+") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        try:
            keys = []
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    keys = json.load(f)
            result = fn(keys)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(keys, f, indent=1)
            os.replace(tmp, path)
            return result
        finally:
            fcntl.flock(lk, fcntl.LOCK_UN)


def new_temp_key(keys):
    k = {"key": str(uuid.uuid4()), "expires_at": time.time() + TEMP_KEY_TTL, "used_at": None,
         "action": "pending"}
    keys.append(k)
    return k


def consume_temp_key(keys, key, action):
    """None on success, else the detail string of app/db/crud/temp_key.py."""
    for k in keys:
        if k["key"] == key:
            if k["used_at"] is not None:
                return "key already used"
            if k["expires_at"] <= time.time():
                return "key expired"
            k["used_at"] = time.time()
            k["action"] = action
            return None
    return "invalid key"


class PasarGuardDouble(NodesMixin, SystemMixin, PanelDouble):
    name = "pasarguard"

    @classmethod
    def add_arguments(cls, parser):
        parser.add_argument("--url-prefix", default="",
                            help="subscription url_prefix setting (default \"\": the "
                                 "subscription_url is relative, /sub/<token>)")
        parser.add_argument("--jwt-expire-minutes", type=int, default=1440,
                            help="JWT_ACCESS_TOKEN_EXPIRE_MINUTES (default 1440)")

    def setup(self):
        st = self.state
        if "jwt_secret" not in st:
            st.update({"jwt_secret": secrets.token_hex(32), "sub_secret": secrets.token_hex(32),
                       "admins": [], "groups": [], "hosts": [], "users": [],
                       # the default core config as GET /api/cores shows it on v5.2.1
                       "cores": [{"id": 1, "name": "Default Core Config", "config": {
                           "policy": {"levels": {"0": {"statsUserOnline": True}}},
                           "log": {"loglevel": "warning"},
                           "inbounds": [{"tag": "Shadowsocks TCP", "listen": "0.0.0.0",
                                         "port": 1080, "protocol": "shadowsocks",
                                         "settings": {"clients": [], "network": "tcp,udp"}}],
                           "outbounds": [{"protocol": "freedom", "tag": "DIRECT"},
                                         {"protocol": "blackhole", "tag": "BLOCK"}],
                           "routing": {"rules": [{"ip": ["geoip:private"], "outboundTag": "BLOCK",
                                                  "type": "field"}]}},
                           "type": "xray", "exclude_inbound_tags": [], "fallbacks_inbound_tags": [],
                           "created_at": utcnow_iso() + "Z"}]})
            self.save_state()
        self.mem_keys = []          # temp keys without --state-dir
        R = self.route
        A = dict(admin=True)
        R("GET", r"/", self.h_home, name="home")
        R("GET", r"/health", self.h_health, name="health")
        R("POST", r"/api/setup/owner", self.h_owner_create, name="setup_owner")
        R("PATCH", r"/api/setup/owner", self.h_owner_reset, name="setup_owner_reset")
        R("POST", r"/api/admin/token", self.h_token, name="admin_token")
        R("GET", r"/api/admin", self.h_admin, name="admin_current", **A)
        R("GET", r"/api/inbounds", self.h_inbounds, name="inbounds", **A)
        R("GET", r"/api/cores", self.h_cores, name="cores", **A)
        R("POST", r"/api/core", self.h_core_create, name="core_create", **A)
        R("POST", r"/api/group", self.h_group_create, name="group_create", **A)
        R("GET", r"/api/groups", self.h_groups, name="groups", **A)
        R("POST", r"/api/host/", self.h_host_create, name="host_create", **A)
        R("POST", r"/api/host", self.h_redirect_slash, name="host_create_noslash")
        R("GET", r"/api/hosts", self.h_hosts, name="hosts", **A)
        R("POST", r"/api/user", self.h_user_create, name="user_create", **A)
        R("GET", r"/api/users", self.h_users, name="users", **A)
        R("GET", r"/api/user/by-id/(?P<id>[^/]+)", self.h_user_get_id, name="user_get_id", **A)
        R("DELETE", r"/api/user/by-id/(?P<id>[^/]+)", self.h_user_del_id,
          name="user_delete_id", **A)
        R("PUT", r"/api/user/by-id/(?P<id>[^/]+)", self.h_user_modify_id, name="user_modify_id", **A)
        R("POST", r"/api/user/(?P<username>[^/]+)/revoke_sub", self.h_revoke,
          name="user_revoke_sub", **A)
        R("GET", r"/api/user/(?P<username>[^/]+)", self.h_user_get, name="user_get", **A)
        R("DELETE", r"/api/user/(?P<username>[^/]+)", self.h_user_del, name="user_delete",
          **A)
        R("GET", r"/sub/(?P<token>[^/]+)/info", self.h_sub_info, name="sub_info")
        R("GET", r"/sub/(?P<token>[^/]+)/(?P<ctype>links|links_base64)", self.h_sub_forced,
          name="sub_forced")
        R("GET", r"/sub/(?P<token>[^/]+)/?", self.h_sub, name="sub")
        self.setup_nodes()
        self.setup_system()

    # ----- plumbing -------------------------------------------------------------
    def _control(self, req):
        # extra control endpoint of this double: mint a temp key (CLI stand-in, --url mode)
        if req.path == "/__double/temp-key" and req.method == "POST":
            k = self.generate_temp_key()
            return json_response({"key": k["key"], "expires_at": k["expires_at"]})
        return super()._control(req)

    def generate_temp_key(self):
        if self.args.state_dir:
            return with_temp_keys(self.args.state_dir, new_temp_key)
        with self.lock:
            return new_temp_key(self.mem_keys)

    def _consume(self, key, action):
        if self.args.state_dir:
            return with_temp_keys(self.args.state_dir,
                                  lambda keys: consume_temp_key(keys, key, action))
        return consume_temp_key(self.mem_keys, key, action)

    def on_session_lost(self):
        self.state["jwt_secret"] = secrets.token_hex(32)
        self.save_state()

    @staticmethod
    def detail(msg, status, headers=None):
        return json_response({"detail": msg}, status, headers)

    def not_found(self, req):
        return self.detail("Not Found", 404)

    def bad_request(self, req, message):
        # FastAPI: undecodable JSON body -> 422
        return self.detail({"body": "JSON decode error"}, 422)

    def _unauth(self):
        return self.detail("Could not validate credentials", 401,
                           {"WWW-Authenticate": "Bearer"})

    def _auth(self, req):
        h = req.header("authorization", "")
        if not h.startswith("Bearer "):
            return None, self._unauth()
        p = jwt_verify(h[7:].strip(), self.state["jwt_secret"])
        if not p or p.get("access") != "admin":
            return None, self._unauth()
        adm = self._admin(p.get("sub"))
        if adm is None or adm.get("pw_changed_at", 0) > p.get("iat", 0) + 1:
            return None, self._unauth()
        if adm.get("is_disabled"):
            return None, self.detail("your account has been disabled", 403)
        return adm, None

    def _admin(self, username):
        return next((a for a in self.state["admins"] if a["username"] == username), None)

    def _next_id(self, kind):
        # SQLite rowids (INTEGER PRIMARY KEY, no AUTOINCREMENT): max + 1, so a
        # deleted row's id is given again when it was the highest (seen on v5.2.1).
        rows = self.state[{"admin": "admins", "group": "groups", "host": "hosts",
                           "user": "users"}[kind]]
        return max((r["id"] for r in rows), default=0) + 1

    @staticmethod
    def _json_obj(req):
        body = req.json()
        if not isinstance(body, dict):
            raise ValueError("Input should be a valid dictionary or object to extract "
                             "fields from")
        return body

    def _authed_body(self, req):
        """(admin, JSON object body, None), or (None, None, the error answer)."""
        adm, e = self._auth(req)
        if e:
            return None, None, e
        try:
            return adm, self._json_obj(req), None
        except ValueError as ex:
            return None, None, self.detail({"body": str(ex)}, 422)

    def _admin_details(self, a):
        return {"id": a["id"], "username": a["username"], "is_disabled": False,
                "is_limited": False, "telegram_id": None, "discord_webhook": None,
                "sub_domain": None, "profile_title": None, "support_url": None,
                "notification_enable": None, "total_users": sum(
                    1 for u in self.state["users"] if u["admin_id"] == a["id"]),
                "used_traffic": 0, "data_limit": None, "status": "active",
                "sub_template": None, "lifetime_used_traffic": 0, "note": None,
                "role": OWNER_ROLE, "permission_overrides": None,
                "custom_variables": []}

    # ----- health / setup / auth ------------------------------------------------
    def h_home(self, req):
        return text_response("<!DOCTYPE html><html><head><title>PasarGuard</title></head>"
                             "<body></body></html>", content_type="text/html; charset=utf-8")

    def h_health(self, req):
        return json_response({"status": "ok"})

    def _owner(self):
        return next((a for a in self.state["admins"] if a.get("owner")), None)

    def h_owner_create(self, req):
        try:
            body = self._json_obj(req)
        except ValueError as e:
            return self.detail({"body": str(e)}, 422)
        missing = {f: "Field required" for f in ("key", "username", "password")
                   if not isinstance(body.get(f), str)}
        if missing:
            return self.detail(missing, 422)
        errs = password_policy(body["password"], body["username"])
        if errs:
            return self.detail({"password": "Value error, " + "; ".join(errs)}, 422)
        try:
            self._check_username(body["username"])
        except ValueError as e:
            return self.detail({"username": "Value error, %s" % e}, 422)
        if self._owner() is not None:
            return self.detail("owner already exists", 409)
        err = self._consume(body["key"], "create_owner")
        if err:
            return self.detail(err, 400 if err == "invalid key" else 410)
        a = {"id": self._next_id("admin"), "username": body["username"], "owner": True,
             "password": pw_hash(body["password"]), "pw_changed_at": 0}
        self.state["admins"].append(a)
        self.save_state()
        return json_response(self._admin_details(a), 201)

    def h_owner_reset(self, req):
        try:
            body = self._json_obj(req)
        except ValueError as e:
            return self.detail({"body": str(e)}, 422)
        missing = {f: "Field required" for f in ("key", "password")
                   if not isinstance(body.get(f), str)}
        if missing:
            return self.detail(missing, 422)
        errs = password_policy(body["password"])
        if errs:
            return self.detail({"password": "Value error, " + "; ".join(errs)}, 422)
        err = self._consume(body["key"], "reset_owner")
        if err:
            return self.detail(err, 400 if err == "invalid key" else 410)
        owner = self._owner()
        if owner is None:
            return self.detail("owner not found", 404)
        owner["password"] = pw_hash(body["password"])
        owner["pw_changed_at"] = time.time()
        self.save_state()
        return json_response(self._admin_details(owner))

    def h_token(self, req):
        ctype = (req.header("content-type") or "").split(";")[0].strip().lower()
        form = req.form() if ctype in ("application/x-www-form-urlencoded",
                                       "multipart/form-data") else {}
        missing = {f: "Field required" for f in ("username", "password") if f not in form}
        if missing:
            return self.detail(missing, 422)
        a = self._admin(form["username"])
        if a is None or not pw_check(form["password"], a["password"]):
            return self.detail("Incorrect username or password", 401,
                               {"WWW-Authenticate": "Bearer"})
        now = int(time.time())
        payload = {"sub": a["username"], "access": "admin", "aid": a["id"], "iat": now}
        if self.args.jwt_expire_minutes > 0:
            payload["exp"] = now + self.args.jwt_expire_minutes * 60
        return json_response({"access_token": jwt_sign(payload, self.state["jwt_secret"]),
                              "token_type": "bearer"})

    def h_admin(self, req):
        a, e = self._auth(req)
        return e or json_response(self._admin_details(a))

    # ----- core / groups / hosts ------------------------------------------------------
    def _inbound_tags(self):
        return [i["tag"] for c in self.state["cores"] for i in c["config"].get("inbounds", [])]

    def _inbound(self, tag):
        for c in self.state["cores"]:
            for i in c["config"].get("inbounds", []):
                if i["tag"] == tag:
                    return i
        return None

    def h_inbounds(self, req):
        _, e = self._auth(req)
        return e or json_response(self._inbound_tags())

    def h_cores(self, req):
        _, e = self._auth(req)
        return e or json_response({"cores": self.state["cores"],
                                   "count": len(self.state["cores"])})

    @staticmethod
    def _xray_config_problem(config):
        """The ValueError (or OSError) text of XRayConfig(config) at v5.2.1, or None."""
        inbounds, outbounds = config.get("inbounds"), config.get("outbounds")
        if not inbounds:
            return "config doesn't have inbounds"
        if not outbounds:
            return "config doesn't have outbounds"
        for i in inbounds:
            tag = i.get("tag")
            if not tag:
                return "all inbounds must have a unique tag"
            if "," in tag:
                return "character «,» is not allowed in inbound tag"
            if "<=>" in tag:
                return "character «<=>» is not allowed in inbound tag"
        if not all(o.get("tag") for o in outbounds):
            return "all outbounds must have a unique tag"
        for i in inbounds:
            if i.get("protocol") not in ("vmess", "vless", "trojan", "shadowsocks", "hysteria"):
                continue
            if "port" not in i and not str(i.get("listen", "")).startswith(("/", "@")):
                return "%s inbound doesn't have port" % i["tag"]
            stream = i.get("streamSettings")
            if not stream:
                continue
            security = stream.get("security")
            if i["protocol"] == "hysteria" and security != "tls":
                return "%s hysteria inbound requires TLS" % i["tag"]
            if security != "tls":
                continue
            for cert in (stream.get("tlsSettings") or {}).get("certificates", []):
                if cert.get("serveOnNode") or not cert.get("certificateFile"):
                    continue
                try:
                    with open(cert["certificateFile"], "rb"):
                        pass
                except OSError as e:
                    return str(e)
                if not cert.get("keyFile"):
                    return "%s inbound doesn't keyFile in tlsSettings" % i["tag"]
                try:
                    with open(cert["keyFile"], "rb"):
                        pass
                except OSError as e:
                    return str(e)
        return None

    def h_core_create(self, req):
        _, body, e = self._authed_body(req)
        if e:
            return e
        config = body.get("config")
        if not isinstance(config, dict):
            return self.detail({"config": "Field required" if "config" not in body else
                                "Input should be a valid dictionary"}, 422)
        if not config:
            return self.detail({"config": "Value error, config dictionary cannot be empty"}, 422)
        name = body.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 256):
            return self.detail({"name": "Input should be a valid string"}, 422)
        problem = self._xray_config_problem(config)
        if problem:
            return self.detail(problem, 400)
        core = {"id": max(c["id"] for c in self.state["cores"]) + 1, "name": name, "config": config,
                "type": "xray", "exclude_inbound_tags": sorted(body.get("exclude_inbound_tags") or []),
                "fallbacks_inbound_tags": sorted(body.get("fallbacks_inbound_tags") or []),
                "created_at": utcnow_iso() + "Z"}
        self.state["cores"].append(core)
        self.save_state()
        return json_response(core, 201)

    def _group_view(self, g):
        return dict(g, total_users=sum(1 for u in self.state["users"]
                                       if g["id"] in u["group_ids"]))

    def h_group_create(self, req):
        _, body, e = self._authed_body(req)
        if e:
            return e
        name, tags = body.get("name"), body.get("inbound_tags")
        if not isinstance(name, str):
            return self.detail({"name": "Field required"}, 422)
        if not 3 <= len(name) <= 64:
            return self.detail({"name": "String should have at least 3 characters"
                                if len(name) < 3 else
                                "String should have at most 64 characters"}, 422)
        if not isinstance(tags, list) or not tags:
            return self.detail({"inbound_tags": "Value error, you must select at least one "
                                                "inbound"}, 422)
        for t in tags:
            if t not in self._inbound_tags():
                return self.detail("%s not found" % t, 400)
        if any(g["name"] == name for g in self.state["groups"]):
            return self.detail("Group already exists", 409)
        g = {"id": self._next_id("group"), "name": name, "inbound_tags": list(tags),
             "is_disabled": bool(body.get("is_disabled", False))}
        self.state["groups"].append(g)
        self.save_state()
        return json_response(self._group_view(g), 201)

    def h_groups(self, req):
        _, e = self._auth(req)
        if e:
            return e
        gs = [self._group_view(g) for g in self.state["groups"]]
        return json_response({"groups": gs, "total": len(gs)})

    def h_redirect_slash(self, req):
        # Starlette redirect_slashes: 307 to the slash route (before auth)
        return Response(307, b"", {"location": "http://%s%s/" % (
            req.header("host") or "127.0.0.1", req.path)})

    def h_host_create(self, req):
        _, body, e = self._authed_body(req)
        if e:
            return e
        errs = {}
        if not isinstance(body.get("remark"), str):
            errs["remark"] = "Field required"
        if not isinstance(body.get("priority"), int) or isinstance(body.get("priority"), bool):
            errs["priority"] = "Field required" if "priority" not in body else \
                "Input should be a valid integer"
        addr = body.get("address", [])
        if addr is not None and (not isinstance(addr, list) or
                                 not all(isinstance(a, str) for a in addr)):
            errs["address"] = "Input should be a valid list"
        port = body.get("port")
        if port is not None and (not isinstance(port, int) or isinstance(port, bool)):
            errs["port"] = "Input should be a valid integer"
        if errs:
            return self.detail(errs, 422)
        tag = body.get("inbound_tag")
        if tag is not None and tag not in self._inbound_tags():
            return self.detail("Inbound %s doesn't exist" % tag, 400)
        h = {"id": self._next_id("host"), "remark": body["remark"], "address": addr or [],
             "inbound_tag": tag, "port": port, "sni": body.get("sni") or [],
             "host": body.get("host") or [], "path": body.get("path"),
             "security": body.get("security", "inbound_default"),
             "alpn": body.get("alpn") or [], "fingerprint": body.get("fingerprint", ""),
             "allowinsecure": body.get("allowinsecure"),
             "is_disabled": bool(body.get("is_disabled", False)),
             "priority": body["priority"], "status": body.get("status") or [],
             "random_user_agent": bool(body.get("random_user_agent", False)),
             "use_sni_as_host": bool(body.get("use_sni_as_host", False)),
             "verify_peer_cert_by_name": body.get("verify_peer_cert_by_name") or []}
        for k in ("ech_config_list", "ech_query_strategy", "final_mask_settings",
                  "fragment_settings", "http_headers", "mux_settings", "noise_settings",
                  "pinned_peer_cert_sha256", "subscription_templates", "transport_settings",
                  "vless_route", "wireguard_overrides"):
            h[k] = body.get(k)
        self.state["hosts"].append(h)
        self.save_state()
        return json_response(h, 201)

    def h_hosts(self, req):
        _, e = self._auth(req)
        return e or json_response(sorted(self.state["hosts"], key=lambda h: h["priority"]))

    # ----- users ------------------------------------------------------------------
    @staticmethod
    def _check_username(username):
        if not 3 <= len(username) <= 128:
            raise ValueError("Username only can be 3 to 128 characters.")
        if not USERNAME_RE.match(username):
            raise ValueError("Username can only contain alphanumeric characters, -, _, @, and .")
        if re.search(r"[-_@.]{2,}", username):
            raise ValueError("Username cannot have consecutive special characters")

    def _sub_token(self, user_id):
        data = "v3,%d,%d" % (user_id, math.ceil(time.time()))
        data_b64 = base64.b64encode(data.encode(), altchars=b"-_").decode().rstrip("=")
        sig = base64.b64encode(hmac.new(self.state["sub_secret"].encode(), data_b64.encode(),
                                        hashlib.sha256).digest(), altchars=b"-_").decode()
        return data_b64 + "." + sig.rstrip("=")

    def _sub_user(self, token):
        data_b64, _, sig = token.rpartition(".")
        if not data_b64:
            return None
        want = base64.b64encode(hmac.new(self.state["sub_secret"].encode(), data_b64.encode(),
                                         hashlib.sha256).digest(), altchars=b"-_").decode()
        if not hmac.compare_digest(want.rstrip("="), sig):
            return None
        try:
            ver, uid, ts = base64.b64decode(data_b64 + "=" * (-len(data_b64) % 4),
                                            altchars=b"-_").decode().split(",")
            uid, ts = int(uid), int(ts)
        except (ValueError, UnicodeDecodeError):
            return None
        u = next((x for x in self.state["users"] if x["id"] == uid), None)
        if u is None or ver != "v3":
            return None
        # app/operation/__init__.py: refused when the user was created after the
        # token (created_at has sub-second precision, the token whole seconds).
        if u["created_ts"] > ts or (u["sub_revoked_ts"] and ts < u["sub_revoked_ts"]):
            return None
        return u

    def _user_view(self, u):
        v = {k: u[k] for k in (
            "id", "username", "status", "used_traffic", "lifetime_used_traffic",
            "created_at", "edit_at", "online_at", "proxy_settings", "expire", "data_limit",
            "data_limit_reset_strategy", "note", "on_hold_expire_duration",
            "on_hold_timeout", "group_ids", "auto_delete_in_days", "hwid_limit",
            "next_plan")}
        a = next((x for x in self.state["admins"] if x["id"] == u["admin_id"]), None)
        v["admin"] = {"id": a["id"], "username": a["username"]} if a else None
        v["subscription_url"] = "%s/sub/%s" % (self.args.url_prefix.rstrip("/"),
                                               self._sub_token(u["id"]))
        return v

    def _validate_user_create(self, body):
        errs = {}
        un = body.get("username")
        if not isinstance(un, str):
            errs["username"] = "Field required"
        else:
            try:
                self._check_username(un)
            except ValueError as e:
                errs["username"] = "Value error, %s" % e
        st = body.get("status")
        if st is not None and st not in ("active", "on_hold"):
            errs["status"] = "Input should be 'active' or 'on_hold'"
        for f in ("data_limit", "on_hold_expire_duration", "hwid_limit",
                  "auto_delete_in_days"):
            x = body.get(f)
            if x is not None and (not isinstance(x, int) or isinstance(x, bool)):
                errs[f] = "Input should be a valid integer"
            elif f == "data_limit" and x is not None and x < 0:
                errs[f] = "Input should be greater than or equal to 0"
        exp = body.get("expire")
        if exp is not None and not isinstance(exp, (int, str)) or isinstance(exp, bool):
            errs["expire"] = "Input should be a valid datetime or integer"
        drs = body.get("data_limit_reset_strategy")
        if drs is not None and drs not in RESET_STRATEGIES:
            errs["data_limit_reset_strategy"] = "Input should be %s" % ", ".join(
                "'%s'" % s for s in RESET_STRATEGIES)
        gids = body.get("group_ids")
        if gids is not None and (not isinstance(gids, list) or
                                 not all(isinstance(g, int) for g in gids)):
            errs["group_ids"] = "Input should be a valid list"
        ps = body.get("proxy_settings")
        if ps is not None and not isinstance(ps, dict):
            errs["proxy_settings"] = "Input should be a valid dictionary"
        return errs

    def _proxy_settings(self, given):
        given = given or {}
        ss = given.get("shadowsocks") or {}
        return {
            "vmess": {"id": (given.get("vmess") or {}).get("id") or str(uuid.uuid4())},
            "vless": {"id": (given.get("vless") or {}).get("id") or str(uuid.uuid4())},
            "trojan": {"password": (given.get("trojan") or {}).get("password")
                       or secrets.token_urlsafe(18)},
            "shadowsocks": {"password": ss.get("password") or secrets.token_urlsafe(18),
                            "method": ss.get("method") or SS_METHOD},
            "hysteria": {"auth": (given.get("hysteria") or {}).get("auth")
                         or secrets.token_urlsafe(18)},
            "wireguard": {"private_key": None, "public_key": None, "peer_ips": []},
        }

    def h_user_create(self, req):
        adm, body, e = self._authed_body(req)
        if e:
            return e
        errs = self._validate_user_create(body)
        if errs:
            return self.detail(errs, 422)
        if any(u["username"].lower() == body["username"].lower() for u in self.state["users"]):
            return self.detail("User already exists", 409)
        gids = body.get("group_ids") or []
        for gid in gids:
            if not any(g["id"] == gid for g in self.state["groups"]):
                return self.detail("Group not found", 404)
        now = time.time()
        u = {"id": self._next_id("user"), "username": body["username"],
             "status": body.get("status") or "active", "used_traffic": 0,
             "lifetime_used_traffic": 0, "created_at": utcnow_iso(), "created_ts": now,
             "edit_at": None, "online_at": None, "sub_revoked_ts": 0,
             "proxy_settings": self._proxy_settings(body.get("proxy_settings")),
             "expire": body.get("expire"), "data_limit": body.get("data_limit") or 0,
             "data_limit_reset_strategy": body.get("data_limit_reset_strategy") or "no_reset",
             "note": body.get("note"),
             "on_hold_expire_duration": body.get("on_hold_expire_duration"),
             "on_hold_timeout": body.get("on_hold_timeout"), "group_ids": gids,
             "auto_delete_in_days": body.get("auto_delete_in_days"),
             "hwid_limit": body.get("hwid_limit"), "next_plan": body.get("next_plan"),
             "admin_id": adm["id"]}
        self.state["users"].append(u)
        self.save_state()
        return json_response(self._user_view(u), 201)

    def _user_by_name(self, req):
        name = urllib.parse.unquote(req.params["username"])
        return next((u for u in self.state["users"] if u["username"] == name), None)

    def _user_by_id(self, req):
        try:
            uid = int(req.params["id"])
        except ValueError:
            return "bad"
        return next((u for u in self.state["users"] if u["id"] == uid), None)

    def h_users(self, req):
        _, e = self._auth(req)
        if e:
            return e
        try:
            offset = int(req.query.get("offset", 0))
            limit = int(req.query["limit"]) if "limit" in req.query else None
        except ValueError:
            return self.detail({"limit": "Input should be a valid integer"}, 422)
        users = self.state["users"]
        if req.query.get("search"):
            users = [u for u in users if req.query["search"] in u["username"]]
        page = users[offset:offset + limit if limit is not None else None]
        # UsersResponse: subscription_url defaults to "" and is minted only
        # with load_sub=true (app/operation/user.py get_users).
        load_sub = req.query.get("load_sub", "false").lower() in ("true", "1", "yes", "on")
        views = [self._user_view(u) for u in page]
        if not load_sub:
            for v in views:
                v["subscription_url"] = ""
        return json_response({"users": views, "total": len(users)})

    def _get(self, req, u):
        _, e = self._auth(req)
        if e:
            return e
        if u == "bad":
            return self.detail({"id": "Input should be a valid integer, unable to parse "
                                      "string as an integer"}, 422)
        return json_response(self._user_view(u)) if u else self.detail("User not found", 404)

    def _delete(self, req, u):
        _, e = self._auth(req)
        if e:
            return e
        if u == "bad":
            return self.detail({"id": "Input should be a valid integer, unable to parse "
                                      "string as an integer"}, 422)
        if not u:
            return self.detail("User not found", 404)
        self.state["users"].remove(u)
        self.save_state()
        # v5.2.1 answers the 204 with FastAPI's JSON media type and no body.
        return empty_response(204, {"Content-Type": "application/json"})

    def h_user_get(self, req):
        return self._get(req, self._user_by_name(req))

    def h_user_get_id(self, req):
        return self._get(req, self._user_by_id(req))

    def h_user_modify_id(self, req):
        # v5.2.1 modify_user_by_id: UserModify, fields left out (or null) unchanged; status only
        # active, on_hold or disabled (UserValidator); answers the UserResponse.
        _, body, e = self._authed_body(req)
        if e:
            return e
        u = self._user_by_id(req)
        if u == "bad":
            return self.detail({"id": "Input should be a valid integer, unable to parse "
                                      "string as an integer"}, 422)
        if not u:
            return self.detail("User not found", 404)
        status = body.get("status")
        if status is not None and status not in ("active", "on_hold", "disabled"):
            return self.detail({"status": "Value error, status must be one of active, on_hold, disabled"}, 422)
        limit = body.get("data_limit")
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            return self.detail({"data_limit": "Input should be greater than or equal to 0"}, 422)
        if status is not None:
            u["status"] = status
        if limit is not None:
            u["data_limit"] = limit
        u["edit_at"] = utcnow_iso()
        self.save_state()
        return json_response(self._user_view(u))

    def h_user_del(self, req):
        return self._delete(req, self._user_by_name(req))

    def h_user_del_id(self, req):
        return self._delete(req, self._user_by_id(req))

    def h_revoke(self, req):
        _, e = self._auth(req)
        if e:
            return e
        u = self._user_by_name(req)
        if not u:
            return self.detail("User not found", 404)
        u["sub_revoked_ts"] = math.ceil(time.time()) + 1
        u["proxy_settings"] = self._proxy_settings(None)
        self.save_state()
        return json_response(self._user_view(u))

    # ----- subscription ---------------------------------------------------------------
    def _links(self, u):
        tags = set()
        for g in self.state["groups"]:
            if g["id"] in u["group_ids"] and not g["is_disabled"]:
                tags.update(g["inbound_tags"])
        links = []
        for h in sorted(self.state["hosts"], key=lambda h: h["priority"]):
            if h["is_disabled"] or h["inbound_tag"] not in tags:
                continue
            if h["status"] and u["status"] not in h["status"]:
                continue
            inbound = self._inbound(h["inbound_tag"])
            if inbound is None:
                continue
            remark = (h["remark"].replace("{USERNAME}", u["username"])
                      .replace("{PROTOCOL}", inbound["protocol"]))
            address = h["address"][0] if h["address"] else "127.0.0.1"
            address = address.replace("{SERVER_IP}", "127.0.0.1")
            port = h["port"] or inbound["port"]
            ps = u["proxy_settings"]
            if inbound["protocol"] == "shadowsocks":
                cred = base64.b64encode(("%s:%s" % (ps["shadowsocks"]["method"],
                                                    ps["shadowsocks"]["password"])).encode())
                links.append("ss://%s@%s:%d#%s" % (cred.decode(), address, port,
                                                   urllib.parse.quote(remark)))
            elif inbound["protocol"] == "hysteria":
                links.append(self._hysteria2_link(h, inbound, ps["hysteria"]["auth"], address,
                                                  port, remark))
            elif inbound["protocol"] == "vless":
                links.append("vless://%s@%s:%d?security=none&type=tcp#%s" % (
                    ps["vless"]["id"], address, port, urllib.parse.quote(remark)))
        return links

    @staticmethod
    def _hysteria2_link(h, inbound, auth, address, port, remark):
        """links.py _build_hysteria with the TLS values app/core/hosts.py merges."""
        stream = inbound.get("streamSettings") or {}
        inbound_tls = stream.get("security") == "tls"
        tls = (stream.get("tlsSettings") or {}) if inbound_tls else {}
        security = {"inbound_default": "tls" if inbound_tls else None, "none": None}.get(
            h["security"], h["security"])
        finalmask = h.get("final_mask_settings") or stream.get("finalmask") or \
            stream.get("finalMask")
        obfs = next((m for m in (finalmask or {}).get("udp") or []
                     if m.get("type") == "salamander"), None)
        payload = {}
        if obfs and (obfs.get("settings") or {}).get("password"):
            payload["obfs"] = "salamander"
            payload["obfs-password"] = obfs["settings"]["password"]
        payload["mports"] = ((finalmask or {}).get("quicParams") or {}).get("udpHop", {}).get(
            "ports", "")
        if finalmask:
            payload["fm"] = json.dumps(finalmask, separators=(",", ":"))
        if security in ("tls", "reality"):
            sni = h["sni"] or ([tls["serverName"]] if tls.get("serverName") else [])
            payload["sni"] = random.choice(sni) if sni else ""
            # hosts.py: the host's fingerprint unless it is "none"; its default is ""
            # (ProxyHostFingerprint.none), so a default host's links carry no fp
            fp = h["fingerprint"] if h["fingerprint"] != "none" else tls.get("fingerprint", "chrome")
            payload["fp"] = fp or ("chrome" if security == "reality" else "")
            pin = h.get("pinned_peer_cert_sha256") or tls.get("pinnedPeerCertSha256", "")
            payload["pcs"] = pin
            payload["pinSHA256"] = pin
            payload["vcn"] = ",".join(h["verify_peer_cert_by_name"])
            payload["alpn"] = ",".join(h["alpn"])
            if h.get("allowinsecure"):
                payload["allowInsecure"] = 1
        payload = {k: v for k, v in payload.items() if v not in (None, "", 0)}
        return "hysteria2://%s@%s:%d?%s#%s" % (
            auth, address, port, urllib.parse.urlencode(payload, quote_via=urllib.parse.quote),
            urllib.parse.quote(remark))

    def _sub_headers(self, u, ext=""):
        exp = u["expire"]
        if isinstance(exp, str):
            try:
                exp = int(datetime.datetime.fromisoformat(exp.replace("Z", "+00:00"))
                          .timestamp())
            except ValueError:
                exp = 0
        return {"content-disposition": 'attachment; filename="%s%s"' % (u["username"], ext),
                "profile-web-page-url": "",
                "support-url": "https://t.me/",
                "profile-title": "base64:" + base64.b64encode(b"Subscription").decode(),
                "profile-update-interval": "12",
                "subscription-userinfo": "upload=0; download=%d; total=%d; expire=%d" % (
                    u["used_traffic"], u["data_limit"] or 0, exp or 0),
                "announce": "base64:", "announce-url": ""}

    def _sub_response(self, req, u, fmt, ext=""):
        headers = self._sub_headers(u, ext)
        headers["profile-web-page-url"] = "http://%s%s" % (req.header("host") or "", req.path)
        links = self._links(u)
        if fmt == "links":
            return text_response("\n".join(links), headers=headers)
        if fmt == "links_base64":
            body = base64.b64encode("\n".join(links).encode()).decode() if links else ""
            return text_response(body, headers=headers)
        if fmt in ("clash", "clash_meta"):
            return text_response("proxies: []\n", content_type="text/yaml; charset=utf-8",
                                 headers=headers)
        return text_response('{"outbounds":[]}', content_type="application/json",
                             headers=headers)

    def h_sub(self, req):
        u = self._sub_user(req.params["token"])
        if u is None:
            return self.detail("Not Found", 404)
        if "text/html" in (req.header("accept") or ""):
            return text_response("<!DOCTYPE html><html><body>%s</body></html>" % u["username"],
                                 content_type="text/html; charset=utf-8",
                                 headers=self._sub_headers(u))
        ua = req.header("user-agent") or ""
        fmt = next(f for rx, f in UA_RULES if rx.match(ua))
        return self._sub_response(req, u, fmt)

    def h_sub_forced(self, req):
        u = self._sub_user(req.params["token"])
        if u is None:
            return self.detail("Not Found", 404)
        return self._sub_response(req, u, req.params["ctype"], ".txt")

    def h_sub_info(self, req):
        u = self._sub_user(req.params["token"])
        if u is None:
            return self.detail("Not Found", 404)
        v = self._user_view(u)
        v.pop("proxy_settings", None)
        return json_response(v)


if __name__ == "__main__":
    run_double(PasarGuardDouble)
