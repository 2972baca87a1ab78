#!/usr/bin/env python3
"""Remnawave admin-API test double (test infrastructure only, stdlib only).

Behaves like remnawave/backend 3.3.2 (contract @remnawave/backend-contract 3.4.2): held
to tests/data/real-panels/remnawave-3.3.2/recording.json, recorded from the real backend
built from source (tests/real-panels/prepare_remnawave.sh), by compat.recorded.remnawave-double, as its source at 3.3.2 says (github.com/remnawave/backend: src/,
libs/contract/, docker-compose-prod.yml) and tests/data/seed-harness/HARNESS.md §1.3/§1.4. Built on tests/doubles/common/panel_double.py.

    python3 tests/doubles/remnawave/remnawave_double.py --port 0 [--state-dir D]
        [--capture F] [--metrics-port 0] [--sub-public-domain panel.domain.com/api/sub]

What it models (reference section in brackets):
  * proxy check [1.2]: every request on the main port without X-Forwarded-For and
    X-Forwarded-Proto: https gets NO HTTP answer (socket reset), incl. /api/sub.
  * envelope [1.4]: every success body is {"response": ...}; errors are
    {"timestamp","path","message","errorCode"} (403 message forced to "Forbidden"),
    Nest defaults for guard failures ({"message","statusCode"} 401,
    {"message","error","statusCode"} 403), nestjs-zod 400 for validation.
  * auth [1.4]: GET /api/auth/status; POST /api/auth/register (201, only while no
    admin; password >=24 chars with upper+lower+digit); POST /api/auth/login (200;
    wrong credentials -> 403 "Forbidden" E000, the code every 403 of
    http-exception.filter.ts carries); admin JWT needs X-Remnawave-Client-Type: browser
    (else 403); POST /api/tokens (201, admin JWT only) mints an API-token JWT;
    DELETE /api/tokens/{uuid} 204 (404 A007). A deleted API token answers 403
    "Forbidden resource" (the JWT guard returns false).
    JWTs are HS256 signed with APP_SECRET kept in state, so they survive a restart.
  * seeded [1.7]: config profile Default-Profile (the nil UUID) and squad
    Default-Squad (a random UUID, made by a migration) with one Shadowsocks inbound
    (port 1234, chacha20-ietf-poly1305); no host. Hosts (duplicate remarks accepted;
    DELETE /api/hosts/{uuid} 204, 404 A046), squads, users via the 3.x routes.
  * config profiles (config-profile.service.ts createConfigProfile, xray-config.validator.ts):
    POST /api/config-profiles {name, config} 201 with the profile and its inbounds (one per
    inbound of a managed protocol: hysteria, shadowsocks, trojan, vless; network and
    security from streamSettings); name 2..30 of [A-Za-z0-9_ -] else 400 (zod),
    "Default-Profile" 400 A145, a taken name 409 A114, a tag another profile has 409
    A113, a config XRayConfig refuses (no inbounds, a tag missing/duplicate/with ",",
    a protocol or network it does not allow) 500 A112.
  * nodes (nodes.service.ts, keygen): GET /api/keygen {pubKey, secretKey} (secretKey: the
    SECRET_KEY a node starts with); POST /api/nodes {name 3..30, address, port?, configProfile
    {activeConfigProfileUuid, activeInbounds}} 201 with the node not yet connected
    (isConnected false, system, versions and lastStatusChange null); a taken name 400
    A033, a taken address 400 A034, an unknown profile 404 A111, an inbound not in it
    404 A124. GET /api/nodes lists them; a node shows as it was created once, then
    connected (versions xray 26.7.28 / node 3.3.2, system info and stats), as the
    real backend reports a node that answers its first call (no node process runs).
  * users [1.5]: POST /api/users 201 (username ^[a-zA-Z0-9_-]+$ 3..36, expireAt
    required); duplicate username -> 400 A019 "User username already exists"
    (backend users.service.ts maps Prisma P2002 to USER_USERNAME_ALREADY_EXISTS,
    httpCode 400); DELETE /api/users/{id} (numeric) -> 204 empty; unknown -> 404 A025;
    GET /api/users/{id}, by-username, by-short-uuid of an unknown user -> 404 A063 "User with
    specified params not found" (getUserByUniqueFields, as the real 3.3.2 answered here).
    The switch (POST /api/users/{id}/actions/enable|disable) and PATCH /api/users
    (status, trafficLimitBytes): remnawave_user_changes.py.
  * subscription [1.6]: GET /api/sub/{shortUuid} (proxy headers needed, User-Agent
    mandatory else 403); default rule -> XRAY_BASE64 text/plain, standard base64 of
    links joined by "\n"; one ss://base64(method:password)@address:port#remark per
    host, hysteria2://<vlessUuid>@address:port/?sni=..&pinSHA256=..&fm=..#remark on a
    hysteria inbound (xray.generator.service.ts buildHysteria2Link: obfs from a
    salamander finalmask, sni and pinSHA256 only with TLS, the host's
    pinnedPeerCertSha256, the sni of resolveFinalServerName; never insecure);
    no host -> vless://0000...@0.0.0.0:1 placeholder remarks; unknown or
    deleted user -> 404 {"isFound":false,"statusCode":404,"message":"Resource not found"}.
    subscriptionUrl = https://<SUB_PUBLIC_DOMAIN>/<shortUuid> (absolute, https).
  * the home page's polls (GET /api/system/stats, /api/system/stats/bandwidth, /api/system/health):
    remnawave_system.py.
  * restart [1.8]: with --state-dir, admin, API tokens, squads, hosts, users and
    APP_SECRET persist. Fault 401-after-restart rotates APP_SECRET (all JWTs ->
    401), like a restart with a changed secret; with --session-lost revoke-tokens it
    deletes every API token instead (API tokens -> 403 "Forbidden resource").
  * metrics listener (--metrics-port, printed as "metrics listening on ..."):
    GET /health, no proxy headers needed [1.3].
"""

import base64
import datetime
import hashlib
import hmac
import json
import os
import re
import secrets
import sys
import urllib.parse
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common.panel_double import (  # noqa: E402
    PanelDouble, Response, empty_response, json_response, run_double, text_response)
from remnawave_system import SystemStatsMixin  # noqa: E402
from remnawave_user_changes import UserChangesMixin  # noqa: E402

NIL_UUID = "00000000-0000-0000-0000-000000000000"
USERNAME_RE = re.compile(r"^[a-zA-Z0-9_-]+$")
PASSWORD_RE = re.compile(r"^(?=.*?[A-Z])(?=.*?[a-z])(?=.*?[0-9]).{24,}$")
UUID_RE = re.compile(r"^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}"
                     r"-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|"
                     r"ffffffff-ffff-ffff-ffff-ffffffffffff)$")
ISO_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$")
NANO_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"
EMPTY_HOST_REMARKS = ["→ Remnawave", "→ No hosts found", "→ Check Hosts tab",
                      "→ Check Internal Squads tab"]
# SRR default rules (prisma/seed/default/response-rules.ts), first match wins.
SRR_RULES = [
    ("MIHOMO", re.compile(r"^(?:flclash|flowvy|murge|mihomo|prizrak-box|koala-clash|"
                          r"clash(?:-verge|-nyanpasu|x meta|[-.]?meta))", re.I), "text/yaml"),
    ("STASH", re.compile(r"^stash", re.I), "text/yaml"),
    ("SINGBOX", re.compile(r"^sfa|sfi|sfm|sft|karing|singbox", re.I), "application/json"),
    ("CLASH", re.compile(r"^clash", re.I), "text/yaml"),
]
ERRORS = {
    "UNAUTHORIZED": ("A003", "Unauthorized", 401),
    "FORBIDDEN": ("A068", "Forbidden", 403),
    "USER_USERNAME_ALREADY_EXISTS": ("A019", "User username already exists", 400),
    "USER_NOT_FOUND": ("A025", "User not found", 404),
    # users.service.ts getUserByUniqueFields: the GETs by id, username and short UUID
    "GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND": ("A063", "User with specified params not found", 404),
    "USER_ALREADY_DISABLED": ("A029", "User already disabled", 400),
    "USER_ALREADY_ENABLED": ("A030", "User already enabled", 400),
    "HOST_NOT_FOUND": ("A046", "Host not found", 404),
    "CONFIG_PROFILE_NOT_FOUND": ("A111", "Config profile not found", 404),
    "INTERNAL_SQUAD_NOT_FOUND": ("A118", "Internal squad not found", 404),
    "INTERNAL_SQUAD_NAME_ALREADY_EXISTS": ("A120", "Internal squad name already exists", 409),
    "CONFIG_PROFILE_INBOUND_NOT_FOUND_IN_SPECIFIED_PROFILE": (
        "A124", "Config profile inbound not found in specified profile", 404),
    "REQUESTED_TOKEN_NOT_FOUND": ("A007", "Requested token not found", 404),
    "NODE_NAME_ALREADY_EXISTS": ("A033", "Node name already exists", 400),
    "NODE_ADDRESS_ALREADY_EXISTS": ("A034", "Node address already exists", 400),
    "CREATE_CONFIG_PROFILE_ERROR": ("A112", "Create config profile error", 500),
    "INBOUNDS_WITH_SAME_TAG_ALREADY_EXISTS": (
        "A113", "Inbounds with same tag already exists in database. Inbound tags must be unique.", 409),
    "CONFIG_PROFILE_NAME_ALREADY_EXISTS": (
        "A114", "Config profile name already exists in database. Config profile names must be unique.", 409),
    "RESERVED_CONFIG_PROFILE_NAME": (
        "A145", "This name is reserved by Remnawave. Please use a different name.", 400),
}
# xray-config.validator.ts at 3.3.2
MANAGED_PROTOCOLS = ("hysteria", "shadowsocks", "trojan", "vless")
ALLOWED_PROTOCOLS = ("dokodemo-door", "http", "hysteria", "mixed", "shadowsocks", "trojan", "tun",
                     "tunnel", "vless", "wireguard")
ALLOWED_NETWORKS = ("grpc", "httpupgrade", "hysteria", "kcp", "raw", "tcp", "ws", "xhttp")
PROFILE_NAME_RE = re.compile(r"^[A-Za-z0-9_\s-]+$")
DOMAIN_RE = re.compile(r"^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$")


def iso(ts=None):
    d = datetime.datetime.fromtimestamp(ts if ts is not None else datetime.datetime.now(
        datetime.timezone.utc).timestamp(), datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)


def parse_iso(s):
    s = s.replace("Z", "+00:00")
    d = datetime.datetime.fromisoformat(s)
    if d.tzinfo is None:
        d = d.replace(tzinfo=datetime.timezone.utc)
    return d


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_dec(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def jwt_sign(payload, secret):
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(secret.encode(), (head + "." + body).encode(), hashlib.sha256).digest()
    return head + "." + body + "." + b64url(sig)


def jwt_verify(token, secret, now):
    try:
        head, body, sig = token.split(".")
        want = hmac.new(secret.encode(), (head + "." + body).encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(b64url(want), sig):
            return None
        payload = json.loads(b64url_dec(body))
    except (ValueError, TypeError):
        return None
    if payload.get("exp") is not None and payload["exp"] <= now:
        return None
    return payload


def pw_hash(password, salt=None):
    salt = salt or secrets.token_hex(8)
    return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()


def pw_check(password, stored):
    salt = stored.split("$", 1)[0]
    return hmac.compare_digest(pw_hash(password, salt), stored)


class ZodFail(Exception):
    def __init__(self, issues):
        super().__init__("validation failed")
        self.issues = issues


class RemnawaveDouble(UserChangesMixin, SystemStatsMixin, PanelDouble):
    name = "remnawave"

    @classmethod
    def add_arguments(cls, parser):
        parser.add_argument("--metrics-port", type=int, default=None,
                            help="also serve the scheduler's GET /health on this port "
                                 "(0 = free port; omitted = no metrics listener)")
        parser.add_argument("--sub-public-domain",
                            default=os.environ.get("SUB_PUBLIC_DOMAIN", "panel.domain.com/api/sub"),
                            help="SUB_PUBLIC_DOMAIN (no scheme); subscriptionUrl = "
                                 "https://<this>/<shortUuid> (default: $SUB_PUBLIC_DOMAIN as the "
                                 "backend reads it, else the .env.sample value)")
        parser.add_argument("--jwt-lifetime-hours", type=float, default=12.0,
                            help="JWT_AUTH_LIFETIME (default 12)")
        parser.add_argument("--short-uuid-length", type=int, default=16)
        parser.add_argument("--session-lost", choices=("rotate-secret", "revoke-tokens"),
                            default="rotate-secret",
                            help="what the 401-after-restart fault does: a restart with a new "
                                 "APP_SECRET (every JWT -> 401), or every API token deleted "
                                 "(an API token -> 403 \"Forbidden resource\")")

    # ----- setup ---------------------------------------------------------------
    def setup(self):
        self._seed()
        if self.args.metrics_port is not None:
            self.add_listener("metrics", self.args.metrics_port)
            self.route("GET", r"/health", self.h_health, name="health", listener="metrics")
        R = self.route
        A = dict(admin=True)
        R("GET", r"/api/auth/status/?", self.h_status, name="auth_status")
        R("POST", r"/api/auth/register/?", self.h_register, name="auth_register")
        R("POST", r"/api/auth/login/?", self.h_login, name="auth_login")
        R("POST", r"/api/tokens/?", self.h_token_create, name="tokens_create", **A)
        R("GET", r"/api/tokens/?", self.h_token_list, name="tokens_list", **A)
        R("DELETE", r"/api/tokens/(?P<uuid>[^/]+)/?", self.h_token_delete,
          name="tokens_delete", **A)
        R("GET", r"/api/keygen/?", self.h_keygen, name="keygen", **A)
        R("GET", r"/api/nodes/?", self.h_nodes, name="nodes_list", **A)
        R("POST", r"/api/nodes/?", self.h_node_create, name="nodes_create", **A)
        R("GET", r"/api/config-profiles/?", self.h_profiles, name="config_profiles", **A)
        R("POST", r"/api/config-profiles/?", self.h_profile_create, name="config_profiles_create",
          **A)
        R("GET", r"/api/config-profiles/inbounds/?", self.h_all_inbounds,
          name="config_profiles_inbounds", **A)
        R("GET", r"/api/internal-squads/?", self.h_squads, name="squads_list", **A)
        R("POST", r"/api/internal-squads/?", self.h_squad_create, name="squads_create", **A)
        R("PATCH", r"/api/internal-squads/?", self.h_squad_update, name="squads_update", **A)
        R("POST", r"/api/internal-squads/(?P<uuid>[^/]+)/bulk-actions/add-users/?",
          self.h_squad_add_all, name="squads_add_users", **A)
        R("GET", r"/api/hosts/?", self.h_hosts, name="hosts_list", **A)
        R("POST", r"/api/hosts/?", self.h_host_create, name="hosts_create", **A)
        R("DELETE", r"/api/hosts/(?P<uuid>[^/]+)/?", self.h_host_delete, name="hosts_delete",
          **A)
        R("GET", r"/api/users/?", self.h_users, name="users_list", **A)
        R("POST", r"/api/users/?", self.h_user_create, name="users_create", **A)
        R("GET", r"/api/users/by-username/(?P<username>[^/]+)/?", self.h_user_by_username,
          name="users_by_username", **A)
        R("GET", r"/api/users/by-short-uuid/(?P<short>[^/]+)/?", self.h_user_by_short,
          name="users_by_short_uuid", **A)
        R("GET", r"/api/users/(?P<userId>[^/]+)/?", self.h_user_get, name="users_get", **A)
        R("DELETE", r"/api/users/(?P<userId>[^/]+)/?", self.h_user_delete,
          name="users_delete", **A)
        self.user_change_routes(R, **A)
        self.system_routes(R, **A)
        R("GET", r"/api/sub/(?P<short>[^/]+)/info/?", self.h_sub_info, name="sub_info")
        R("GET", r"/api/sub/(?P<short>[^/]+)/?", self.h_sub, name="sub")
        # every main-listener route goes through the reverse-proxy check
        for r in self.routes:
            if r.listener == "main":
                r.handler = self._proxy_checked(r.handler)

    def _seed(self):
        st = self.state
        changed = False
        if "app_secret" not in st:
            st["app_secret"] = secrets.token_hex(32)
            changed = True
        if "profiles" not in st:
            t = iso()
            inbound_uuid = str(uuid.uuid4())
            # prisma/seed/default/xray-config.ts at 3.3.2
            raw = {"tag": "Shadowsocks", "port": 1234, "protocol": "shadowsocks",
                   "settings": {"clients": [], "method": "chacha20-ietf-poly1305", "network": "tcp,udp"},
                   "sniffing": {"enabled": True, "destOverride": ["http", "tls", "quic"]}}
            st["profiles"] = [{
                "uuid": NIL_UUID, "name": "Default-Profile", "viewPosition": 1,
                "createdAt": t, "updatedAt": t,
                "config": {"log": {"loglevel": "info"}, "inbounds": [raw],
                           "outbounds": [{"tag": "DIRECT", "protocol": "freedom"},
                                         {"tag": "BLOCK", "protocol": "blackhole"}],
                           "routing": {"rules": []}},
                "inbounds": [{"uuid": inbound_uuid, "profileUuid": NIL_UUID,
                              "tag": "Shadowsocks", "type": "shadowsocks", "network": None,
                              "security": None, "port": 1234, "rawInbound": raw}]}]
            # Default-Squad comes from a migration (gen_random_uuid()); only the
            # config profile is seeded with the nil uuid (5_seed-config-profile.ts).
            st["squads"] = [{"uuid": str(uuid.uuid4()), "name": "Default-Squad", "viewPosition": 1,
                             "tags": [], "inbounds": [inbound_uuid],
                             "createdAt": t, "updatedAt": t}]
            st.setdefault("hosts", [])
            st.setdefault("users", [])
            st.setdefault("tokens", [])
            st.setdefault("admin", None)
            st.setdefault("next_user_id", 1)
            st.setdefault("keygen", b64url(secrets.token_bytes(48)))
            changed = True
        if "nodes" not in st:
            st["nodes"] = []
            changed = True
        if changed:
            self.save_state()

    def on_session_lost(self):
        if self.args.session_lost == "revoke-tokens":
            self.state["tokens"] = []
        else:
            self.state["app_secret"] = secrets.token_hex(32)
        self.save_state()

    # ----- response helpers ------------------------------------------------------
    @staticmethod
    def ok(obj, status=200):
        return json_response({"response": obj}, status)

    @staticmethod
    def err(req, key):
        code, message, http = ERRORS[key]
        if http == 403:
            # http-exception.filter.ts: every 403 reads "Forbidden" with the
            # filter's default code E000 (the error's own code is dropped).
            message, code = "Forbidden", "E000"
        return json_response({"timestamp": iso(), "path": req.raw_path,
                              "message": message, "errorCode": code}, http)

    @staticmethod
    def zod_error(issues):
        return json_response({"statusCode": 400, "message": "Validation failed",
                              "errors": issues}, 400)

    @staticmethod
    def nest_401():
        return json_response({"message": "Unauthorized", "statusCode": 401}, 401)

    @staticmethod
    def nest_403(message="Forbidden resource"):
        return json_response({"message": message, "error": "Forbidden",
                              "statusCode": 403}, 403)

    def _proxy_checked(self, handler):
        def wrapped(req):
            if not req.header("x-forwarded-for") or req.header("x-forwarded-proto") != "https":
                return None     # panel_double: None = close the socket, no HTTP answer
            return handler(req)
        return wrapped

    def not_found(self, req):
        if req.listener == "main" and (not req.header("x-forwarded-for") or
                                       req.header("x-forwarded-proto") != "https"):
            return None
        return json_response({"message": "Cannot %s %s" % (req.method, req.path),
                              "error": "Not Found", "statusCode": 404}, 404)

    def bad_request(self, req, message):
        return self.zod_error([{"code": "invalid_type", "path": [], "message": message}])

    # ----- auth ---------------------------------------------------------------------
    def _auth(self, req, admin_only=False):
        """Returns (payload, None) or (None, error Response)."""
        h = req.header("authorization", "")
        if not h.startswith("Bearer "):
            return None, self.nest_401()
        payload = jwt_verify(h[7:].strip(), self.state["app_secret"], int(self._now()))
        if payload is None:
            return None, self.nest_401()
        role = payload.get("role")
        if role == "ADMIN":
            if req.header("x-remnawave-client-type") != "browser":
                return None, self.nest_403(
                    "For API requests you must create own API-token in the admin dashboard.")
            adm = self.state.get("admin")
            if not adm or adm["username"] != payload.get("username") or \
                    adm["uuid"] != payload.get("uuid"):
                return None, self.nest_403()
            return payload, None
        if role == "API":
            if admin_only:
                return None, self.nest_403()
            tok = self._token(payload.get("uuid"))
            if tok is None:
                return None, self.nest_403()
            return payload, None
        return None, self.nest_403()

    @staticmethod
    def _now():
        return datetime.datetime.now(datetime.timezone.utc).timestamp()

    def _token(self, tuuid):
        for t in self.state["tokens"]:
            if t["uuid"] == tuuid:
                return t
        return None

    def _status_obj(self):
        adm = self.state.get("admin")
        branding = {"title": None, "logoUrl": None}
        if not adm:
            return {"isLoginAllowed": False, "isRegisterAllowed": True,
                    "authentication": None, "branding": branding}
        return {"isLoginAllowed": True, "isRegisterAllowed": False,
                "authentication": {
                    "passkey": {"enabled": False},
                    "oauth2": {"providers": {"telegram": False, "github": False,
                                             "pocketid": False, "yandex": False,
                                             "keycloak": False, "generic": False}},
                    "password": {"enabled": True}},
                "branding": branding}

    def h_health(self, req):
        return json_response({"status": "ok", "info": {"database": {"status": "up"}},
                              "error": {}, "details": {"database": {"status": "up"}}})

    def h_status(self, req):
        return self.ok(self._status_obj())

    def _admin_jwt(self):
        adm = self.state["admin"]
        now = int(self._now())
        return jwt_sign({"username": adm["username"], "uuid": adm["uuid"], "role": "ADMIN",
                         "iat": now, "exp": now + int(self.args.jwt_lifetime_hours * 3600)},
                        self.state["app_secret"])

    def _login_body(self, req, register):
        body = req.json()
        issues = []
        if not isinstance(body, dict):
            raise ZodFail([{"code": "invalid_type", "expected": "object", "path": [],
                            "message": "Invalid input: expected object"}])
        for f in ("username", "password"):
            if not isinstance(body.get(f), str):
                issues.append({"code": "invalid_type", "expected": "string", "path": [f],
                               "message": "Invalid input: expected string, received %s"
                               % ("undefined" if f not in body else type(body[f]).__name__)})
        if register and not issues:
            pw = body["password"]
            if len(pw) < 24:
                issues.append({"code": "too_small", "minimum": 24, "origin": "string",
                               "path": ["password"],
                               "message": "Too small: expected string to have >=24 characters"})
            if not PASSWORD_RE.match(pw):
                issues.append({"code": "invalid_format", "format": "regex",
                               "path": ["password"],
                               "message": "Password must contain uppercase and lowercase "
                                          "letters, numbers, and be at least 24 characters long."})
        if issues:
            raise ZodFail(issues)
        return body

    def h_register(self, req):
        try:
            body = self._login_body(req, register=True)
        except ZodFail as e:
            return self.zod_error(e.issues)
        if self.state.get("admin"):
            return self.err(req, "FORBIDDEN")
        self.state["admin"] = {"username": body["username"], "uuid": str(uuid.uuid4()),
                               "password": pw_hash(body["password"])}
        self.save_state()
        return self.ok({"accessToken": self._admin_jwt()}, 201)

    def h_login(self, req):
        try:
            body = self._login_body(req, register=False)
        except ZodFail as e:
            return self.zod_error(e.issues)
        adm = self.state.get("admin")
        if not adm or adm["username"] != body["username"] or \
                not pw_check(body["password"], adm["password"]):
            return self.err(req, "FORBIDDEN")
        return self.ok({"accessToken": self._admin_jwt()})

    # ----- API tokens -----------------------------------------------------------------
    def h_token_create(self, req):
        _, e = self._auth(req, admin_only=True)
        if e:
            return e
        body = req.json()
        issues = []
        name = body.get("name") if isinstance(body, dict) else None
        days = body.get("expiresInDays") if isinstance(body, dict) else None
        if not isinstance(name, str) or not 2 <= len(name) <= 30:
            issues.append({"code": "invalid_type" if not isinstance(name, str) else "too_small",
                           "path": ["name"], "message": "name must be a string of 2..30"})
        if not isinstance(days, (int, float)) or isinstance(days, bool) or days < 1:
            issues.append({"code": "invalid_type", "path": ["expiresInDays"],
                           "message": "expiresInDays must be a number >= 1"})
        if issues:
            return self.zod_error(issues)
        now = self._now()
        t = {"uuid": str(uuid.uuid4()), "name": name, "scopes": body.get("scopes") or ["*"],
             "expireAt": iso(now + days * 86400), "createdAt": iso(now), "updatedAt": iso(now)}
        self.state["tokens"].append(t)
        self.save_state()
        token = jwt_sign({"uuid": t["uuid"], "username": None, "role": "API",
                          "iat": int(now), "exp": int(now + days * 86400)},
                         self.state["app_secret"])
        return self.ok(dict(t, token=token), 201)

    def h_token_list(self, req):
        _, e = self._auth(req, admin_only=True)
        if e:
            return e
        return self.ok({"tokens": [dict(t, token="") for t in self.state["tokens"]],
                        "docs": {"isDocsEnabled": False, "scalarPath": None,
                                 "swaggerPath": None}})

    def h_token_delete(self, req):
        _, e = self._auth(req, admin_only=True)
        if e:
            return e
        t = self._token(req.params["uuid"])
        if t is None:
            return self.err(req, "REQUESTED_TOKEN_NOT_FOUND")
        self.state["tokens"].remove(t)
        self.save_state()
        return empty_response(204)

    def h_keygen(self, req):
        _, e = self._auth(req)
        if e:
            return e
        return self.ok({"pubKey": self.state["keygen"], "secretKey": self.state["keygen"]})

    # ----- nodes ------------------------------------------------------------------
    @staticmethod
    def _node_system():
        return {"info": {"arch": "x64", "cpus": 2, "cpuModel": "stand double", "memoryTotal": 2 << 30,
                         "hostname": "remnanode", "platform": "linux", "release": "6.1.0",
                         "type": "Linux", "version": "#1 SMP", "networkInterfaces": ["lo"]},
                "stats": {"memoryFree": 1 << 30, "memoryUsed": 1 << 30, "uptime": 1.5,
                          "loadAvg": [0.1, 0.1, 0.1],
                          "interface": {"interface": "lo", "rxBytesPerSec": 0, "txBytesPerSec": 0,
                                        "rxTotal": 0, "txTotal": 0}}}

    def _node_view(self, n):
        inbounds = [self._inbound_view(i) for _, i in self._inbounds() if i["uuid"] in n["inbounds"]]
        up = n["connected"]
        return {"uuid": n["uuid"], "id": n["id"], "name": n["name"], "address": n["address"],
                "port": n["port"], "proxyUrl": None, "isConnected": up, "isConnecting": False,
                "isDisabled": False, "lastStatusChange": n["statusChange"], "lastStatusMessage": None,
                "trafficResetDay": 1, "consumptionMultiplier": 1, "nodeConsumptionMultiplier": 1,
                "isTrafficTrackingActive": False, "trafficLimitBytes": 0, "trafficUsedBytes": 0,
                "notifyPercent": 0, "note": None, "viewPosition": n["id"], "countryCode": "XX",
                "tags": [], "integrationUuids": [], "ips": [], "createdAt": n["createdAt"],
                "updatedAt": n["statusChange"] or n["createdAt"],
                "configProfile": {"activeConfigProfileUuid": n["profile"], "activeInbounds": inbounds},
                "providerUuid": None, "provider": None, "activePluginUuid": None,
                "xrayUptime": 2 if up else 0, "usersOnline": 0,
                "system": self._node_system() if up else None,
                "versions": {"xray": "26.7.28", "node": "3.3.2"} if up else None}

    def h_nodes(self, req):
        _, e = self._auth(req)
        if e:
            return e
        out = [self._node_view(n) for n in self.state["nodes"]]
        for n in self.state["nodes"]:
            if not n["connected"]:
                n["connected"], n["statusChange"] = True, iso()
        self.save_state()
        return self.ok(out)

    @staticmethod
    def _node_body_issues(body):
        """CreateNodeCommand.RequestBodySchema's checks the adapter's body meets."""
        issues = []
        name = body.get("name")
        if not isinstance(name, str) or not 3 <= len(name) <= 30:
            issues.append({"code": "invalid_type", "path": ["name"], "message": "name must be a string of 3..30"})
        if not isinstance(body.get("address"), str) or len(body["address"]) < 2:
            issues.append({"code": "too_small", "path": ["address"], "message": "address: 2 characters at least"})
        port = body.get("port")
        if port is not None and (not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535):
            issues.append({"code": "invalid_type", "expected": "int", "path": ["port"],
                           "message": "Invalid input: expected int 1..65535"})
        prof = body.get("configProfile")
        if not isinstance(prof, dict) or not isinstance(prof.get("activeConfigProfileUuid"), str) \
                or not UUID_RE.match(prof["activeConfigProfileUuid"]) \
                or not isinstance(prof.get("activeInbounds"), list) \
                or not all(isinstance(i, str) and UUID_RE.match(i) for i in prof["activeInbounds"]):
            issues.append({"code": "invalid_type", "path": ["configProfile"],
                           "message": "configProfile: {activeConfigProfileUuid, activeInbounds} of uuids"})
        return issues

    def h_node_create(self, req):
        _, e = self._auth(req)
        if e:
            return e
        body = req.json()
        issues = self._node_body_issues(body)
        if issues:
            return self.zod_error(issues)
        name, prof = body["name"], body["configProfile"]
        nodes = self.state["nodes"]
        if any(n["name"] == name for n in nodes):
            return self.err(req, "NODE_NAME_ALREADY_EXISTS")
        if any(n["address"] == body["address"] for n in nodes):
            return self.err(req, "NODE_ADDRESS_ALREADY_EXISTS")
        p = next((p for p in self.state["profiles"] if p["uuid"] == prof["activeConfigProfileUuid"]), None)
        if p is None:
            return self.err(req, "CONFIG_PROFILE_NOT_FOUND")
        if any(i not in {x["uuid"] for x in p["inbounds"]} for i in prof["activeInbounds"]):
            return self.err(req, "CONFIG_PROFILE_INBOUND_NOT_FOUND_IN_SPECIFIED_PROFILE")
        n = {"uuid": str(uuid.uuid4()), "id": max([x["id"] for x in nodes], default=0) + 1, "name": name,
             "address": body["address"], "port": body.get("port"), "profile": p["uuid"],
             "inbounds": list(prof["activeInbounds"]), "connected": False, "statusChange": None,
             "createdAt": iso()}
        nodes.append(n)
        self.save_state()
        return self.ok(self._node_view(n), 201)

    # ----- profiles / squads / hosts ------------------------------------------------
    def _inbounds(self):
        for p in self.state["profiles"]:
            for i in p["inbounds"]:
                yield p, i

    @staticmethod
    def _inbound_view(i):
        return {k: i[k] for k in ("uuid", "profileUuid", "tag", "type", "network",
                                  "security", "port", "rawInbound")}

    def _profile_view(self, p):
        return {"uuid": p["uuid"], "name": p["name"], "viewPosition": p["viewPosition"],
                "config": p["config"], "inbounds": [self._inbound_view(i) for i in p["inbounds"]],
                "nodes": [{"uuid": n["uuid"], "name": n["name"], "countryCode": "XX"}
                          for n in self.state.get("nodes", []) if n["profile"] == p["uuid"]],
                "createdAt": p["createdAt"],
                "updatedAt": p["updatedAt"]}

    def h_profiles(self, req):
        _, e = self._auth(req)
        if e:
            return e
        out = [self._profile_view(p) for p in self.state["profiles"]]
        return self.ok({"total": len(out), "configProfiles": out})

    @staticmethod
    def _xray_config_problem(config):
        """What XRayConfig's constructor would throw for this config, or None."""
        inbounds = config.get("inbounds")
        if not isinstance(inbounds, list) or not inbounds:
            return "Config doesn't have inbounds."
        seen = set()
        for i in inbounds:
            if not isinstance(i, dict):
                return "Invalid inbound"
            stream = i.get("streamSettings") or {}
            if stream.get("network") and stream["network"] not in ALLOWED_NETWORKS:
                return 'Invalid network type "%s" in inbound "%s".' % (stream["network"], i.get("tag"))
            if i.get("protocol") and i["protocol"] not in ALLOWED_PROTOCOLS:
                return 'Invalid protocol in inbound "%s".' % i.get("tag")
            tag = i.get("tag")
            if not tag:
                return "All inbounds must have a unique tag."
            if "," in tag:
                return "Character ',' is not allowed in inbound tag."
            if tag in seen:
                return 'Duplicate inbound tag "%s" found.' % tag
            seen.add(tag)
            if i.get("protocol") == "shadowsocks" and not i.get("settings"):
                return "Shadowsocks settings are required."
        return None

    def h_profile_create(self, req):
        _, e = self._auth(req)
        if e:
            return e
        body = req.json()
        name = body.get("name") if isinstance(body, dict) else None
        config = body.get("config") if isinstance(body, dict) else None
        issues = []
        if not isinstance(name, str) or not 2 <= len(name) <= 30 or not PROFILE_NAME_RE.match(name):
            issues.append({"code": "invalid_format", "path": ["name"],
                           "message": "Name can only contain letters, numbers, underscores, "
                                      "dashes and spaces (2..30)"})
        if not isinstance(config, dict):
            issues.append({"code": "invalid_type", "expected": "object", "path": ["config"],
                           "message": "Invalid input: expected object"})
        if issues:
            return self.zod_error(issues)
        if name == "Default-Profile":
            return self.err(req, "RESERVED_CONFIG_PROFILE_NAME")
        problem = self._xray_config_problem(config)
        if problem:
            # the backend logs the validator's message and answers the generic A112
            print("create config profile: %s" % problem, file=sys.stderr, flush=True)
            return self.err(req, "CREATE_CONFIG_PROFILE_ERROR")
        if any(p["name"] == name for p in self.state["profiles"]):
            return self.err(req, "CONFIG_PROFILE_NAME_ALREADY_EXISTS")
        taken = {i["tag"] for _, i in self._inbounds()}
        if any(i["tag"] in taken for i in config["inbounds"]):
            return self.err(req, "INBOUNDS_WITH_SAME_TAG_ALREADY_EXISTS")
        t = iso()
        puuid = str(uuid.uuid4())
        inbounds = []
        for raw in config["inbounds"]:
            if raw.get("protocol") not in MANAGED_PROTOCOLS:
                continue
            stream = raw.get("streamSettings") or {}
            port = raw.get("port")
            if isinstance(port, str):
                port = int(port.split(",")[0]) if port else None
            inbounds.append({"uuid": str(uuid.uuid4()), "profileUuid": puuid, "tag": raw["tag"],
                             "type": raw["protocol"], "network": stream.get("network"),
                             "security": stream.get("security"), "port": port or None,
                             "rawInbound": raw})
        p = {"uuid": puuid, "name": name,
             "viewPosition": max((x["viewPosition"] for x in self.state["profiles"]), default=0) + 1,
             "createdAt": t, "updatedAt": t, "config": config, "inbounds": inbounds}
        self.state["profiles"].append(p)
        self.save_state()
        return self.ok(self._profile_view(p), 201)

    def h_all_inbounds(self, req):
        _, e = self._auth(req)
        if e:
            return e
        ins = [dict(self._inbound_view(i),
                    activeSquads=[s["uuid"] for s in self.state["squads"]
                                  if i["uuid"] in s["inbounds"]])
               for _, i in self._inbounds()]
        return self.ok({"total": len(ins), "inbounds": ins})

    def _squad_view(self, s):
        members = sum(1 for u in self.state["users"] if s["uuid"] in u["squads"])
        ins = [self._inbound_view(i) for _, i in self._inbounds() if i["uuid"] in s["inbounds"]]
        return {"uuid": s["uuid"], "viewPosition": s["viewPosition"], "name": s["name"],
                "info": {"membersCount": members, "inboundsCount": len(ins)},
                "inbounds": ins, "createdAt": s["createdAt"], "updatedAt": s["updatedAt"]}

    def _squad(self, suuid):
        for s in self.state["squads"]:
            if s["uuid"] == suuid:
                return s
        return None

    def h_squads(self, req):
        _, e = self._auth(req)
        if e:
            return e
        sq = [self._squad_view(s) for s in self.state["squads"]]
        return self.ok({"total": len(sq), "internalSquads": sq})

    def _check_inbound_uuids(self, lst, path):
        if not isinstance(lst, list) or not all(isinstance(x, str) and UUID_RE.match(x)
                                                for x in lst):
            raise ZodFail([{"code": "invalid_format", "format": "uuid", "path": [path],
                            "message": "Invalid UUID"}])

    def h_squad_create(self, req):
        _, e = self._auth(req)
        if e:
            return e
        body = req.json()
        name = body.get("name")
        try:
            if not isinstance(name, str) or not 2 <= len(name) <= 30 or \
                    not re.match(r"^[A-Za-z0-9_\s-]+$", name):
                raise ZodFail([{"code": "invalid_format", "path": ["name"],
                                "message": "Invalid name"}])
            self._check_inbound_uuids(body.get("inbounds"), "inbounds")
        except ZodFail as z:
            return self.zod_error(z.issues)
        if any(s["name"] == name for s in self.state["squads"]):
            return self.err(req, "INTERNAL_SQUAD_NAME_ALREADY_EXISTS")
        t = iso()
        s = {"uuid": str(uuid.uuid4()), "name": name,
             "viewPosition": len(self.state["squads"]) + 1, "tags": [],
             "inbounds": list(body["inbounds"]), "createdAt": t, "updatedAt": t}
        self.state["squads"].append(s)
        self.save_state()
        return self.ok(self._squad_view(s), 201)

    def h_squad_update(self, req):
        _, e = self._auth(req)
        if e:
            return e
        body = req.json()
        s = self._squad(body.get("uuid"))
        if s is None:
            return self.err(req, "INTERNAL_SQUAD_NOT_FOUND")
        if "inbounds" in body:
            try:
                self._check_inbound_uuids(body["inbounds"], "inbounds")
            except ZodFail as z:
                return self.zod_error(z.issues)
            s["inbounds"] = list(body["inbounds"])
        if isinstance(body.get("name"), str):
            s["name"] = body["name"]
        s["updatedAt"] = iso()
        self.save_state()
        return self.ok(self._squad_view(s))

    def h_squad_add_all(self, req):
        _, e = self._auth(req)
        if e:
            return e
        s = self._squad(req.params["uuid"])
        if s is None:
            return self.err(req, "INTERNAL_SQUAD_NOT_FOUND")
        for u in self.state["users"]:
            if s["uuid"] not in u["squads"]:
                u["squads"].append(s["uuid"])
        self.save_state()
        return self.ok({"eventSent": True})

    def _host_view(self, h):
        v = dict(h)
        v.pop("_internal", None)
        return v

    def h_hosts(self, req):
        _, e = self._auth(req)
        if e:
            return e
        return self.ok([self._host_view(h) for h in self.state["hosts"]])

    def h_host_create(self, req):
        _, e = self._auth(req)
        if e:
            return e
        body = req.json()
        issues = []
        inb = body.get("inbound")
        if not isinstance(inb, dict):
            issues.append({"code": "invalid_type", "expected": "object", "path": ["inbound"],
                           "message": "Invalid input: expected object, received undefined"})
        else:
            for f in ("configProfileUuid", "configProfileInboundUuid"):
                if not isinstance(inb.get(f), str) or not UUID_RE.match(inb[f]):
                    issues.append({"code": "invalid_format", "format": "uuid",
                                   "path": ["inbound", f], "message": "Invalid UUID"})
        remark = body.get("remark")
        if not isinstance(remark, str) or not 1 <= len(remark) <= 100:
            issues.append({"code": "invalid_type", "path": ["remark"],
                           "message": "remark must be a string of 1..100"})
        if not isinstance(body.get("address"), str):
            issues.append({"code": "invalid_type", "expected": "string", "path": ["address"],
                           "message": "Invalid input: expected string"})
        port = body.get("port")
        if not isinstance(port, int) or isinstance(port, bool):
            issues.append({"code": "invalid_type", "expected": "int", "path": ["port"],
                           "message": "Invalid input: expected int"})
        if issues:
            return self.zod_error(issues)
        prof = next((p for p in self.state["profiles"]
                     if p["uuid"] == inb["configProfileUuid"]), None)
        if prof is None:
            return self.err(req, "CONFIG_PROFILE_NOT_FOUND")
        if not any(i["uuid"] == inb["configProfileInboundUuid"] for i in prof["inbounds"]):
            return self.err(req, "CONFIG_PROFILE_INBOUND_NOT_FOUND_IN_SPECIFIED_PROFILE")
        # hosts.service.ts createHost does not look at the remark: duplicates are kept.
        h = {"uuid": str(uuid.uuid4()),
             "viewPosition": max((x["viewPosition"] for x in self.state["hosts"]), default=0) + 1,
             "remark": remark, "address": body["address"], "port": port,
             "path": body.get("path"), "sni": body.get("sni"), "host": body.get("host"),
             "alpn": body.get("alpn"), "fingerprint": body.get("fingerprint"),
             "isDisabled": bool(body.get("isDisabled", False)),
             "securityLayer": body.get("securityLayer", "DEFAULT"),
             "xhttpExtraParams": None, "muxParams": None, "sockoptParams": None,
             "finalMask": body.get("finalMask"),
             "inbound": {"configProfileUuid": inb["configProfileUuid"],
                         "configProfileInboundUuid": inb["configProfileInboundUuid"]},
             "serverDescription": None, "tags": body.get("tags", []),
             "isHidden": bool(body.get("isHidden", False)),
             "overrideSniFromAddress": False, "keepSniBlank": False,
             "pinnedPeerCertSha256": body.get("pinnedPeerCertSha256"),
             "verifyPeerCertByName": None, "vlessRouteId": None, "shuffleHost": False,
             "mihomoX25519": False, "mihomoIpVersion": None,
             "nodes": body.get("nodes", []), "xrayJsonTemplateUuid": None,
             "excludedInternalSquads": [], "mapper": {},
             "excludeFromSubscriptionTypes":
                 body.get("excludeFromSubscriptionTypes", [])}
        self.state["hosts"].append(h)
        self.save_state()
        return self.ok(self._host_view(h), 201)

    def h_host_delete(self, req):
        _, e = self._auth(req)
        if e:
            return e
        h = next((x for x in self.state["hosts"] if x["uuid"] == req.params["uuid"]), None)
        if h is None:
            return self.err(req, "HOST_NOT_FOUND")
        self.state["hosts"].remove(h)
        self.save_state()
        return empty_response(204)

    # ----- users ------------------------------------------------------------------
    def _user_view(self, u):
        squads = [{"uuid": s["uuid"], "name": s["name"]} for s in self.state["squads"]
                  if s["uuid"] in u["squads"]]
        v = {k: u[k] for k in (
            "id", "shortUuid", "username", "status", "trafficLimitBytes",
            "trafficLimitStrategy", "expireAt", "telegramId", "email", "description", "tag",
            "hwidDeviceLimit", "externalSquadUuid", "trojanPassword", "vlessUuid",
            "ssPassword", "lastTriggeredThreshold", "subRevokedAt", "lastTrafficResetAt", "createdAt", "updatedAt")}
        v["subscriptionUrl"] = "https://%s/%s" % (self.args.sub_public_domain, u["shortUuid"])
        v["activeInternalSquads"] = squads
        v["userTraffic"] = {"usedTrafficBytes": 0, "lifetimeUsedTrafficBytes": 0,
                            "onlineAt": None, "firstConnectedAt": None,
                            "lastConnectedNodeUuid": None}
        return v

    def _find_user(self, **kw):
        # One field per look-up; a flat generator keeps a 1000-user storm's
        # subscription look-ups cheap enough for 300 requests/s (CI failed at 268/s).
        (field, value), = kw.items()
        return next((u for u in self.state["users"] if u.get(field) == value), None)

    def _validate_create_user(self, body):
        issues = []
        if not isinstance(body, dict):
            raise ZodFail([{"code": "invalid_type", "expected": "object", "path": [],
                            "message": "Invalid input: expected object"}])
        un = body.get("username")
        if not isinstance(un, str):
            issues.append({"code": "invalid_type", "expected": "string", "path": ["username"],
                           "message": "Invalid input: expected string"})
        else:
            if not USERNAME_RE.match(un):
                issues.append({"code": "invalid_format", "format": "regex",
                               "path": ["username"],
                               "message": "Username can only contain letters, numbers, "
                                          "underscores and dashes"})
            if len(un) < 3:
                issues.append({"code": "too_small", "minimum": 3, "path": ["username"],
                               "message": "Username must be at least 3 characters long"})
            if len(un) > 36:
                issues.append({"code": "too_big", "maximum": 36, "path": ["username"],
                               "message": "Username must be less than 36 characters"})
        ea = body.get("expireAt")
        if not isinstance(ea, str) or not ISO_RE.match(ea):
            issues.append({"code": "invalid_format" if isinstance(ea, str) else "invalid_type",
                           "format": "datetime", "path": ["expireAt"],
                           "message": "Invalid expiration date format"})
        else:
            try:
                parse_iso(ea)
            except ValueError:
                issues.append({"code": "invalid_format", "format": "datetime",
                               "path": ["expireAt"], "message": "Invalid ISO datetime"})
        st = body.get("status", "ACTIVE")
        if st not in ("ACTIVE", "DISABLED", "LIMITED", "EXPIRED"):
            issues.append({"code": "invalid_value", "path": ["status"],
                           "message": "Invalid option"})
        sq = body.get("activeInternalSquads", [])
        if not isinstance(sq, list) or not all(isinstance(x, str) and UUID_RE.match(x)
                                               for x in sq):
            issues.append({"code": "invalid_format", "format": "uuid",
                           "path": ["activeInternalSquads"], "message": "Invalid UUID"})
        tlb = body.get("trafficLimitBytes", 0)
        if not isinstance(tlb, (int, float)) or isinstance(tlb, bool) or tlb < 0:
            issues.append({"code": "too_small", "path": ["trafficLimitBytes"],
                           "message": "Traffic limit must be greater than 0"})
        if issues:
            raise ZodFail(issues)

    def _nanoid(self):
        return "".join(secrets.choice(NANO_ALPHABET) for _ in range(self.args.short_uuid_length))

    def h_user_create(self, req):
        _, e = self._auth(req)
        if e:
            return e
        body = req.json()
        try:
            self._validate_create_user(body)
        except ZodFail as z:
            return self.zod_error(z.issues)
        if self._find_user(username=body["username"]):
            return self.err(req, "USER_USERNAME_ALREADY_EXISTS")
        for sq in body.get("activeInternalSquads", []):
            if self._squad(sq) is None:
                # Prisma FK failure -> generic create error in the backend
                return json_response({"timestamp": iso(), "path": req.raw_path,
                                      "message": "Failed to create user",
                                      "errorCode": "A018"}, 500)
        now = iso()
        uid = self.state["next_user_id"]
        self.state["next_user_id"] = uid + 1
        u = {"id": uid, "shortUuid": body.get("shortUuid") or self._nanoid(),
             "username": body["username"], "status": body.get("status", "ACTIVE"),
             "trafficLimitBytes": int(body.get("trafficLimitBytes", 0)),
             "trafficLimitStrategy": body.get("trafficLimitStrategy", "NO_RESET"),
             "expireAt": iso(parse_iso(body["expireAt"]).timestamp()),
             "telegramId": body.get("telegramId"), "email": body.get("email"),
             "description": body.get("description"), "tag": body.get("tag"),
             "hwidDeviceLimit": body.get("hwidDeviceLimit"),
             "externalSquadUuid": body.get("externalSquadUuid"),
             "trojanPassword": body.get("trojanPassword") or secrets.token_hex(16)[:30],
             "vlessUuid": body.get("vlessUuid") or str(uuid.uuid4()),
             "ssPassword": body.get("ssPassword") or secrets.token_hex(16)[:30],
             "lastTriggeredThreshold": 0, "subRevokedAt": None, "subLastUserAgent": None,
             "subLastOpenedAt": None, "lastTrafficResetAt": None,
             "createdAt": now, "updatedAt": now,
             "squads": list(body.get("activeInternalSquads", []))}
        self.state["users"].append(u)
        self.save_state()
        return self.ok(self._user_view(u), 201)

    def h_users(self, req):
        _, e = self._auth(req)
        if e:
            return e
        try:
            start = int(float(req.query.get("start", 0)))
            size = int(float(req.query.get("size", 25)))
        except ValueError:
            return self.zod_error([{"code": "invalid_type", "path": ["size"],
                                    "message": "Invalid input: expected number"}])
        if not 1 <= size <= 1000:
            return self.zod_error([{"code": "too_big" if size > 1000 else "too_small",
                                    "path": ["size"], "message": "size must be 1..1000"}])
        users = self.state["users"]
        return self.ok({"users": [self._user_view(u) for u in users[start:start + size]],
                        "total": len(users)})

    def _user_id_param(self, req):
        try:
            n = float(req.params["userId"])
        except ValueError:
            n = float("nan")
        if not n > 0:
            raise ZodFail([{"code": "invalid_type", "expected": "number", "path": ["userId"],
                            "message": "Invalid input: expected number, received NaN"
                            if n != n else "Too small: expected number to be >0"}])
        return int(n) if n == int(n) else n

    def _user_at(self, req, missing="USER_NOT_FOUND"):
        """(the user the path's userId names, None), or (None, the answer: 400 zod or 404 `missing`)."""
        try:
            uid = self._user_id_param(req)
        except ZodFail as z:
            return None, self.zod_error(z.issues)
        u = self._find_user(id=uid)
        return (u, None) if u else (None, self.err(req, missing))

    def h_user_get(self, req):
        _, e = self._auth(req)
        if e:
            return e
        u, e = self._user_at(req, "GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND")
        return e or self.ok(self._user_view(u))

    def h_user_by_username(self, req):
        _, e = self._auth(req)
        if e:
            return e
        u = self._find_user(username=urllib.parse.unquote(req.params["username"]))
        return self.ok(self._user_view(u)) if u else self.err(req, "GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND")

    def h_user_by_short(self, req):
        _, e = self._auth(req)
        if e:
            return e
        u = self._find_user(shortUuid=req.params["short"])
        return self.ok(self._user_view(u)) if u else self.err(req, "GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND")

    def h_user_delete(self, req):
        _, e = self._auth(req)
        if e:
            return e
        u, e = self._user_at(req)
        if e:
            return e
        self.state["users"].remove(u)
        self.save_state()
        return empty_response(204)

    # ----- subscription ---------------------------------------------------------------
    def _links(self, u):
        if u["status"] != "ACTIVE" or parse_iso(u["expireAt"]).timestamp() < self._now():
            # the seeded custom remarks (prisma/seed/seeders/8_seed-subscription-settings.ts; the
            # disabled ones as the real 3.3.2 served them here)
            remarks = {"DISABLED": ["🚫 Subscription disabled", "Contact support"],
                       "LIMITED": ["🚧 Subscription limited", "Contact support"]}.get(
                u["status"], ["⌛ Subscription expired", "Contact support"])
            return [self._placeholder(r) for r in remarks]
        inbound_ids = set()
        for s in self.state["squads"]:
            if s["uuid"] in u["squads"]:
                inbound_ids.update(s["inbounds"])
        inbounds = {i["uuid"]: i for _, i in self._inbounds()}
        links = []
        for h in self.state["hosts"]:
            iid = h["inbound"]["configProfileInboundUuid"]
            if h["isDisabled"] or h["isHidden"] or iid not in inbound_ids:
                continue
            if "XRAY_BASE64" in h.get("excludeFromSubscriptionTypes", []):
                continue
            link = self._link(h, inbounds.get(iid), u)
            if link:
                links.append(link)
        if not links:
            return [self._placeholder(r) for r in EMPTY_HOST_REMARKS]
        return links

    @staticmethod
    def _placeholder(remark):
        return ("vless://%s@0.0.0.0:1?encryption=none&type=tcp&security=none#%s"
                % (NIL_UUID, urllib.parse.quote(remark, safe="")))

    @staticmethod
    def _link(h, inbound, u):
        if inbound is None:
            return None
        remark = urllib.parse.quote(h["remark"], safe="-_.!~*'()")
        t = inbound["type"]
        if t == "shadowsocks":
            method = (inbound.get("method") or inbound["rawInbound"].get("settings", {})
                      .get("method") or "chacha20-ietf-poly1305")
            cred = base64.b64encode(("%s:%s" % (method, u["ssPassword"])).encode()).decode()
            return "ss://%s@%s:%d#%s" % (cred, h["address"], h["port"], remark)
        if t == "hysteria":
            return RemnawaveDouble._hysteria2_link(h, inbound["rawInbound"], u, remark)
        if t == "vless":
            return ("vless://%s@%s:%d?type=%s&security=%s#%s"
                    % (u["vlessUuid"], h["address"], h["port"], inbound.get("network") or "tcp",
                       inbound.get("security") or "none", remark))
        if t == "trojan":
            return ("trojan://%s@%s:%d?type=tcp&security=none#%s"
                    % (urllib.parse.quote(u["trojanPassword"], safe=""), h["address"],
                       h["port"], remark))
        return None

    @staticmethod
    def _hysteria2_link(h, raw, u, remark):
        """buildHysteria2Link of the host resolved as resolve-proxy-config.service.ts does."""
        stream = raw.get("streamSettings") or {}
        # resolveProtocolOptions: no link for an inbound without settings
        if not raw.get("settings") or stream.get("network") != "hysteria":
            return None
        security = {"TLS": "tls", "NONE": "none"}.get(h.get("securityLayer"), stream.get("security"))
        final_mask = h.get("finalMask") or stream.get("finalmask") or None
        params = []
        obfs = next((m for m in (final_mask or {}).get("udp") or []
                     if isinstance(m, dict) and m.get("type") == "salamander"), None)
        if obfs and (obfs.get("settings") or {}).get("password"):
            params += [("obfs", "salamander"), ("obfs-password", obfs["settings"]["password"])]
        if security == "tls":
            tls = stream.get("tlsSettings") or {}
            if h.get("keepSniBlank"):
                sni = ""
            elif h.get("overrideSniFromAddress"):
                sni = h["address"]
            else:
                sni = h.get("sni") or tls.get("serverName") or ""
                if not sni and DOMAIN_RE.match(h["address"]):
                    sni = h["address"]
            if sni:
                params.append(("sni", sni))
            if h.get("pinnedPeerCertSha256"):
                params.append(("pinSHA256", h["pinnedPeerCertSha256"]))
        if final_mask:
            params.append(("fm", json.dumps(final_mask, separators=(",", ":"))))
        # encodeURIComponent keeps A-Z a-z 0-9 - _ . ! ~ * ' ( )
        enc = lambda v: urllib.parse.quote(str(v), safe="-_.!~*'()")  # noqa: E731
        query = "&".join("%s=%s" % (enc(k), enc(v)) for k, v in params)
        return "hysteria2://%s@%s:%d/%s#%s" % (enc(u["vlessUuid"]), h["address"], h["port"],
                                               "?" + query if query else "", remark)

    @staticmethod
    def _not_found_sub():
        return json_response({"isFound": False, "statusCode": 404,
                              "message": "Resource not found"}, 404)

    def _sub_headers(self, u):
        exp = parse_iso(u["expireAt"])
        expire = 0 if exp.year == 2099 else int(exp.timestamp())
        return {"content-disposition": "attachment; filename=%s" % u["username"],
                "subscription-userinfo": "upload=0; download=0; total=%d; expire=%d"
                                         % (u["trafficLimitBytes"], expire),
                "profile-title": "base64:" + base64.b64encode(b"Remnawave").decode(),
                "profile-update-interval": "12",
                "support-url": "https://remna.st",
                "profile-web-page-url": "https://%s/%s" % (self.args.sub_public_domain,
                                                           u["shortUuid"])}

    def h_sub(self, req):
        u = self._find_user(shortUuid=req.params["short"])
        ua = req.header("user-agent")
        if not ua:
            return self.err(req, "FORBIDDEN")
        if u is None:
            return self._not_found_sub()
        headers = self._sub_headers(u)
        if "text/html" in (req.header("accept") or ""):
            return text_response("<html><body><h1>%s</h1></body></html>" % u["username"],
                                 content_type="text/html; charset=utf-8", headers=headers)
        for kind, rx, ctype in SRR_RULES:
            if rx.search(ua) if kind == "SINGBOX" else rx.match(ua):
                # not modelled in detail: the right Content-Type and a marker body
                body = ('{"outbounds":[]}' if ctype == "application/json"
                        else "proxies: []\n")
                return text_response(body, content_type=ctype + "; charset=utf-8",
                                     headers=headers)
        body = base64.b64encode("\n".join(self._links(u)).encode()).decode()
        return text_response(body, headers=headers)

    def h_sub_info(self, req):
        u = self._find_user(shortUuid=req.params["short"])
        if u is None:
            return self._not_found_sub()
        v = self._user_view(u)
        return self.ok({"isFound": True, "user": {
            "shortUuid": u["shortUuid"], "daysLeft": 0, "trafficUsed": "0",
            "trafficLimit": "0", "lifetimeTrafficUsed": "0", "trafficUsedBytes": "0",
            "trafficLimitBytes": str(u["trafficLimitBytes"]), "lifetimeTrafficUsedBytes": "0",
            "username": u["username"], "expiresAt": u["expireAt"],
            "isActive": u["status"] == "ACTIVE", "userStatus": u["status"],
            "trafficLimitStrategy": u["trafficLimitStrategy"]},
            "links": self._links(u), "ssConfLinks": {},
            "subscriptionUrl": v["subscriptionUrl"]})


if __name__ == "__main__":
    run_double(RemnawaveDouble)
