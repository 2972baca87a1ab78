#!/usr/bin/env python3
"""3x-ui panel test double (test infrastructure only; see ../README.md).

Behaviour follows 3x-ui's source (github.com/MHSanaei/3x-ui; ../README.md, "3XUI":
A2 auth + CSRF, A3 envelope, A4 inbounds, A5 clients, A6 subscription server) and
tests/data/seed-harness/HARNESS.md §1.3/§1.4 (3x-ui rows). Two listeners: the panel (--port, default free)
and the subscription server (--sub-port). Start by hand:
    python3 xui_double.py --port 2053 --sub-port 2096 --api v3.1 --state-dir /tmp/xui
Second stdout line: "sub listening on 127.0.0.1:PORT".
--api legacy = v3.0.x (CSRF, /panel/api/inbounds/addClient family, settings as JSON
strings, unknown subId -> 400 "Error!"); add --no-csrf for v2.x behaviour.
--api v3.1   = /panel/api/clients/* family, nested objects, unknown subId -> 404.

Run as an installed x-ui is run (XUI_DB_FOLDER set, see xui_install.py), the
double takes its ports, listen address, base path and admin account from
XUI_DB_FOLDER/x-ui.db, answers `xui_double.py [flags] setting -port ...` and
`-v` as x-ui v3.6.0 does, and holds the Xray template's API port.
"""

import base64
import json
import os
import re
import secrets
import sys
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common.panel_double import (  # noqa: E402
    BadRequest, PanelDouble, Response, empty_response, json_response, run_double,
    text_response)
import xui_install  # noqa: E402
import xui_settings_defaults  # noqa: E402
from inbound_listeners import InboundListeners  # noqa: E402
from common.hysteria_core import Cores  # noqa: E402

HTML = "text/html; charset=utf-8"
PROTOCOLS = ("vmess", "vless", "trojan", "shadowsocks", "wireguard", "hysteria", "http",
             "mixed", "tunnel", "tun", "mtproto")
SUB_PROTOCOLS = ("vmess", "vless", "trojan", "shadowsocks", "hysteria")
MSG_LOGIN_OK = "You have successfully logged into your account."
MSG_LOGIN_BAD = "Invalid username or password or two-factor code."
MSG_INBOUND_ADDED = "Inbound has been successfully created."
MSG_INBOUND_DELETED = "Inbound has been successfully deleted."
MSG_CLIENTS_ADDED = "Inbound client(s) have been added."
MSG_CLIENT_DELETED = "Inbound client has been deleted."
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


def env(success, msg="", obj=None):
    """The entity.Msg envelope, always HTTP 200."""
    return json_response({"success": success, "msg": msg, "obj": obj})


def fail(detail, action="Something went wrong"):
    # common.NewError uses fmt.Sprintln, so the detail ends with "\n" before ")".
    return env(False, "%s (%s\n)" % (action, detail))


def pin_hex(pin):
    """A pinnedPeerCertSha256 entry as bare lowercase hex (v3.6.0 hysteriaPinHex)."""
    h = pin.strip().replace(":", "")
    if len(h) == 64 and re.fullmatch(r"[0-9a-fA-F]+", h):
        return h.lower()
    try:
        b = base64.b64decode(pin.strip() + "=" * (-len(pin.strip()) % 4))
        if len(b) == 32:
            return b.hex()
    except ValueError:
        pass
    return pin


def transport(inb):
    net = (inb["streamSettings"] or {}).get("network", "tcp")
    return "udp" if inb["protocol"] == "hysteria" or net in ("kcp", "quic", "hysteria") else "tcp"


class XuiDouble(PanelDouble):
    name = "3x-ui"

    @classmethod
    def add_arguments(cls, p):
        p.add_argument("--api", choices=("legacy", "v3.1"), default="v3.1",
                       help="client API generation (legacy = <= v3.0.x)")
        p.add_argument("--no-csrf", action="store_true", help="v2.x: no CSRF checks")
        p.add_argument("--web-base-path", default="/", help="webBasePath, e.g. /abc/")
        p.add_argument("--sub-port", type=int, default=0, help="subscription listener (0 = free)")
        p.add_argument("--sub-path", default="/sub/")
        p.add_argument("--sub-encrypt", choices=("true", "false"), default="true")
        p.add_argument("--username", default="admin")
        p.add_argument("--password", default="admin")
        p.add_argument("--api-token", default="", help="accepted Bearer token (v3.0+); empty = none")
        p.add_argument("--login-max-failures", type=int, default=5)
        p.add_argument("--login-block-seconds", type=float, default=900)
        p.add_argument("--keep-sessions", action="store_true",
                       help="sessions survive a restart (real cookie store); default: lost")
        # Fixtures the compat suite must fail (tests/compat): not real-panel behaviour.
        p.add_argument("--placeholder-links", action="store_true",
                       help="links name 0.0.0.0:1, what a panel with no hosts returns")
        p.add_argument("--hysteria-core", default="",
                       help="tests/hysteria2-server: serve each enabled Hysteria 2 inbound with it (the "
                            "inbound's certificate, its enabled clients' auth), count each client's traffic")
        p.add_argument("--bind-all", action="store_true",
                       help="inbounds bind 0.0.0.0 whatever their listen (use a private netns)")
        p.add_argument("--late-sub-seconds", type=float, default=0,
                       help="the subscription server answers 503 for this long after the start (its port is "
                            "open at once, so a TCP readiness check passes)")
        # A fixture the compat suite must pass: what multi-protocol panels serve besides stand's schemes.
        p.add_argument("--foreign-sub-lines", action="store_true",
                       help="each subscription also holds comment lines (#No Time Limit, # profile-title: x) "
                            "and links of schemes stand does not check (ssh://, snell://)")
        p.add_argument("--unreachable-hosts", action="store_true",
                       help="each subscription also holds links whose host names no endpoint, as real panels "
                            "write them: none, none.sslip.io (no public address found), a REALITY decoy "
                            "(yahoo.com) and an info line (12.51--2026.12.07.time)")

    @classmethod
    def adjust_args(cls, args):
        """An installed x-ui's settings win over the flags (XUI_PORT over webPort)."""
        args.installed = "XUI_DB_FOLDER" in os.environ
        found = xui_install.settings() if args.installed else None
        if found is None:
            return
        args.port = int(os.environ.get("XUI_PORT") or found.get("webPort") or 2053)
        args.web_base_path = found.get("webBasePath") or "/"
        args.sub_port = int(found.get("subPort") or 2096)
        args.sub_listen = found.get("subListen", "")
        args.username, args.password = found["__user"], found["__password"]
        args.state_dir = args.state_dir or os.environ["XUI_DB_FOLDER"]

    def setup(self):
        a, st = self.args, self.state
        b = "/" + a.web_base_path.strip("/") + "/"
        self.base = "/" if b == "//" else b
        self.legacy = a.api == "legacy"
        self.csrf = not a.no_csrf
        st.setdefault("inbounds", {})
        st.setdefault("next_inbound_id", 1)
        self.sessions = st.get("sessions", {}) if a.keep_sessions else {}
        self.login_failures = {}
        self.add_listener("sub", a.sub_port)
        self.sub_serves_at = time.monotonic() + a.late_sub_seconds
        self.core = InboundListeners(a.bind_all)
        for inb in st["inbounds"].values():
            if inb["enable"] and transport(inb) == "tcp":
                self.core.open(inb)
        self.hysteria = Cores(a.hysteria_core, st) if a.hysteria_core else None
        self.xray = None
        if getattr(a, "installed", False):
            tpl = st.setdefault("xray_template", {
                "inbounds": [{"listen": "127.0.0.1", "port": xui_install.DEFAULT_TEMPLATE_API_PORT,
                              "protocol": "tunnel", "tag": "api"}],
                "metrics": {"listen": xui_install.DEFAULT_TEMPLATE_METRICS, "tag": "metrics_out"}})
            self.xray = xui_install.XrayStandIn(self.template_api_port(tpl))
        self.save_state()

        B = re.escape(self.base)
        r = self.route
        if self.base != "/":
            r("GET", re.escape(self.base.rstrip("/")), self.redirect_base, name="base_redirect")
        r("GET", B, self.index, name="index")
        r("GET", B + "csrf-token", self.csrf_token, name="csrf-token")
        r("POST", B + "login", self.login, name="login")
        r("POST", B + "logout", self.logout, name="logout")
        r("POST", B + "getTwoFactorEnable", lambda req: env(True, "", False), name="getTwoFactorEnable")
        r("GET", B + "panel/", self.panel_page, name="panel")
        api = B + "panel/api/"

        def a_(method, path, fn, name):
            r(method, api + path, self.authed(fn), name=name, admin=True)
        a_("GET", "server/status", self.server_status, "server/status")
        a_("GET", "server/getNewX25519Cert", self.x25519, "server/getNewX25519Cert")
        a_("POST", "server/restartXrayService", lambda req: env(True, "Xray restarted"),
           "server/restartXrayService")
        # Settings and the Xray template moved under panel/api/ in v3.3.0;
        # v3.0.0-v3.2.8 (--api legacy) serve them under panel/.
        def s_(method, path, fn, name):
            r(method, (B + "panel/" if self.legacy else api) + path, self.authed(fn), name=name, admin=True)
        s_("POST", "setting/all", self.setting_all, "setting/all")
        s_("POST", "xray/", self.xray_settings, "xray")
        s_("POST", "xray/update", self.xray_update, "xray/update")
        a_("GET", "inbounds/list", self.inbounds_list, "inbounds/list")
        a_("GET", "inbounds/list/slim", self.inbounds_slim, "inbounds/list/slim")
        a_("GET", r"inbounds/get/(?P<id>\d+)", self.inbound_get, "inbounds/get")
        a_("POST", "inbounds/add", self.inbound_add, "inbounds/add")
        a_("POST", r"inbounds/del/(?P<id>\d+)", self.inbound_del, "inbounds/del")
        if self.legacy:
            a_("POST", "inbounds/addClient", self.legacy_add_client, "inbounds/addClient")
            a_("POST", r"inbounds/(?P<id>\d+)/delClient/(?P<cid>[^/]+)", self.legacy_del_client,
               "inbounds/delClient")
            a_("POST", r"inbounds/(?P<id>\d+)/delClientByEmail/(?P<email>[^/]+)",
               self.legacy_del_client, "inbounds/delClientByEmail")
            a_("GET", r"inbounds/getClientTraffics/(?P<email>[^/]+)", self.legacy_traffics,
               "inbounds/getClientTraffics")
        else:
            a_("POST", "clients/add", self.clients_add, "clients/add")
            a_("GET", r"clients/get/(?P<email>[^/]+)", self.clients_get, "clients/get")
            a_("GET", "clients/list", self.clients_list, "clients/list")
            a_("GET", "clients/list/paged", self.clients_list_paged, "clients/list/paged")
            a_("POST", r"clients/del/(?P<email>[^/]+)", self.clients_del, "clients/del")
            a_("GET", r"clients/links/(?P<email>[^/]+)", self.clients_links, "clients/links")
            a_("POST", "clients/bulkEnable", lambda req: self.clients_bulk_enable(req, True), "clients/bulkEnable")
            a_("POST", "clients/bulkDisable", lambda req: self.clients_bulk_enable(req, False), "clients/bulkDisable")
            a_("POST", r"clients/update/(?P<email>[^/]+)", self.clients_update, "clients/update")
            a_("GET", r"clients/traffic/(?P<email>[^/]+)", self.clients_traffic, "clients/traffic")
        self.api_prefix = self.base + "panel/api/"
        r("GET", re.escape(a.sub_path) + r"(?P<subid>[^/]+)", self.subscription,
          name="subscription", listener="sub")

    # ------------------------------------------------------------ sessions
    def save_state(self):
        self.sync_hysteria()
        super().save_state()

    def sync_hysteria(self):
        """Every enabled Hysteria inbound served by a core with its enabled clients (--hysteria-core)."""
        if getattr(self, "hysteria", None) is None:  # before setup() made it, or without --hysteria-core
            return
        spec = {}
        for inb in self.state["inbounds"].values():
            ss = inb["streamSettings"] or {}
            certs = (ss.get("tlsSettings") or {}).get("certificates") or [{}]
            if inb["protocol"] != "hysteria" or not inb["enable"] or not certs[0].get("certificateFile"):
                continue
            obfs = ""
            for m in ((ss.get("finalmask") or {}).get("udp") or []):
                if m.get("type") == "salamander":
                    obfs = (m.get("settings") or {}).get("password", "")
            users = {c["auth"]: c.get("email", "") for c in inb["settings"]["clients"]
                     if c.get("enable", True) and c.get("auth")}
            spec[inb["id"]] = (self.core.address(inb.get("listen") or ""), inb["port"], certs[0]["certificateFile"],
                               certs[0].get("keyFile", ""), obfs, users)
        self.hysteria.sync(spec)

    def traffic_of(self, email):
        """(up, down): what the double's Hysteria cores carried for the client; 0 without them."""
        return self.hysteria.traffic_of(email) if self.hysteria else (0, 0)

    def on_session_lost(self):
        self.sessions.clear()
        self._save_sessions()

    def _save_sessions(self):
        if self.args.keep_sessions:
            self.state["sessions"] = self.sessions
            self.save_state()

    def cookie(self, sid):
        return "3x-ui=%s; Path=%s; Max-Age=21600; HttpOnly; SameSite=Lax" % (sid, self.base)

    def get_session(self, req):
        sid = req.cookies.get("3x-ui")
        return (sid, self.sessions[sid]) if sid in self.sessions else (None, None)

    def ensure_session(self, req):
        sid, s = self.get_session(req)
        if s is None:
            sid = secrets.token_urlsafe(32)
            s = self.sessions[sid] = {"csrf": secrets.token_urlsafe(32), "user": None}
            self._save_sessions()
        return sid, s

    def csrf_ok(self, req, s):
        if not self.csrf:
            return True
        tok = req.header("X-CSRF-Token")
        if not tok and "x-www-form-urlencoded" in (req.header("Content-Type") or ""):
            tok = req.form().get("_csrf")
        return bool(s and tok and secrets.compare_digest(tok, s["csrf"]))

    def authed(self, fn):
        def h(req):
            auth = req.header("Authorization") or ""
            if self.args.api_token and auth == "Bearer " + self.args.api_token:
                return fn(req)  # Bearer skips CSRF
            _, s = self.get_session(req)
            if not s or not s["user"]:
                if not self.legacy and req.header("X-Requested-With") == "XMLHttpRequest":
                    return empty_response(401)
                return empty_response(404)
            if req.method not in SAFE_METHODS and not self.csrf_ok(req, s):
                return empty_response(403)
            return fn(req)
        return h

    def not_found(self, req):
        return text_response("404 page not found", 404)

    # ------------------------------------------------------------- pages
    def redirect_base(self, req):
        return empty_response(301, {"Location": self.base})

    def index(self, req):
        sid, s = self.ensure_session(req)
        if s["user"]:
            return empty_response(307, {"Location": self.base + "panel/"})
        html = ('<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="csrf-token" content="%s">'
                '<title>Login</title></head><body><form method="post" action="%slogin">'
                '<input name="username"><input name="password" type="password"></form></body></html>\n'
                % (s["csrf"] if self.csrf else "", self.base))
        return text_response(html, 200, HTML, cookies=[self.cookie(sid)])

    def panel_page(self, req):
        _, s = self.get_session(req)
        if not s or not s["user"]:
            return empty_response(307, {"Location": self.base})
        return text_response("<!DOCTYPE html><html><body>panel</body></html>\n", 200, HTML)

    def csrf_token(self, req):
        sid, s = self.ensure_session(req)
        body = {"success": True, "obj": s["csrf"]} if not self.legacy else {"success": True, "msg": "", "obj": s["csrf"]}
        return json_response(body, cookies=[self.cookie(sid)])

    def login(self, req):
        sid, s = self.get_session(req)
        if self.csrf and not self.csrf_ok(req, s):
            return empty_response(403)
        if s is None:
            sid, s = self.ensure_session(req)
        ctype = req.header("Content-Type") or ""
        form = req.json() if "json" in ctype else req.form()
        user, pw = str(form.get("username", "")), str(form.get("password", ""))
        if not user:
            return env(False, "Username is required")
        if not pw:
            return env(False, "Password is required")
        key = (req.client_ip, user)
        now = time.time()
        rec = self.login_failures.setdefault(key, {"times": [], "blocked": 0})
        if rec["blocked"] > now:
            return env(False, MSG_LOGIN_BAD)
        if user != self.args.username or pw != self.args.password:
            rec["times"] = [t for t in rec["times"] if now - t < 300] + [now]
            if len(rec["times"]) >= self.args.login_max_failures:
                rec["blocked"], rec["times"] = now + self.args.login_block_seconds, []
            return env(False, MSG_LOGIN_BAD)
        rec["times"] = []
        # re-issue the cookie (new id); the CSRF token lives in the session and survives
        self.sessions.pop(sid, None)
        sid = secrets.token_urlsafe(32)
        self.sessions[sid] = {"csrf": s["csrf"], "user": user}
        self._save_sessions()
        return json_response({"success": True, "msg": MSG_LOGIN_OK, "obj": None},
                             cookies=[self.cookie(sid)])

    def logout(self, req):
        sid, s = self.get_session(req)
        if self.csrf and not self.csrf_ok(req, s):
            return empty_response(403)
        self.sessions.pop(sid, None)
        self._save_sessions()
        return empty_response(307, {"Location": self.base})

    # ------------------------------------------------------- server/setting
    def server_status(self, req):
        return env(True, "", {"xray": {"state": "running", "errorMsg": "", "version": "26.3.27"},
                              "uptime": 1, "cpu": 0.0})

    @staticmethod
    def template_api_port(tpl):
        return next(i["port"] for i in tpl["inbounds"] if i.get("tag") == "api")

    def xray_settings(self, req):
        return env(True, "", json.dumps({"xraySetting": self.state.get("xray_template", {}),
                                         "inboundTags": "[]", "clientReverseTags": "[]",
                                         "outboundTestUrl": "https://www.google.com/generate_204"}))

    def xray_update(self, req):
        try:
            tpl = json.loads(req.form().get("xraySetting", ""))
            port = self.template_api_port(tpl)
        except (ValueError, StopIteration, KeyError, TypeError):
            return fail("invalid xray template", "Failed to modify settings")
        self.state["xray_template"] = tpl
        self.save_state()
        if self.xray is not None:
            self.xray.move(port)
        return env(True, "The parameters have been changed.")

    def x25519(self, req):
        if getattr(self.args, "installed", False) and not os.path.isfile(xui_install.xray_binary()):
            return fail("fork/exec %s: no such file or directory" % xui_install.xray_binary())
        b = lambda: base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
        return env(True, "", {"privateKey": b(), "publicKey": b()})

    def setting_all(self, req):
        a = self.args
        out = dict(xui_settings_defaults.DEFAULTS)
        out.update({"webListen": "", "webPort": self.port(), "webBasePath": self.base,
                    "subListen": getattr(a, "sub_listen", ""), "subPort": self.port("sub"),
                    "subPath": a.sub_path, "subEncrypt": a.sub_encrypt == "true"})
        return env(True, "", out)

    # ------------------------------------------------------------- inbounds
    def body(self, req):
        if "x-www-form-urlencoded" in (req.header("Content-Type") or ""):
            return req.form()
        b = req.json()
        if not isinstance(b, dict):
            raise BadRequest("body is not an object")
        return b

    def bad_request(self, req, message):
        return env(False, "Something went wrong (%s)" % message)

    def out_inbound(self, inb, slim=False):
        """v3.6.0's inbound JSON (legacy = v3.0.x: fewer keys, settings as strings).
        The slim list keeps only email/enable of each client and empties
        clientStats' uuid and subId."""
        o = dict(inb)
        clients = inb["settings"].get("clients", [])
        stats = [{"id": i + 1, "inboundId": inb["id"], "enable": c.get("enable", True),
                  "email": c.get("email", ""), "up": 0, "down": 0,
                  "expiryTime": c.get("expiryTime", 0), "total": c.get("totalGB", 0),
                  "reset": c.get("reset", 0), "subId": c.get("subId", "")} for i, c in enumerate(clients)]
        if self.legacy:
            if slim:
                return {k: o[k] for k in ("id", "remark", "enable", "port", "protocol", "tag", "listen")}
            o["clientStats"] = stats
            for k in ("settings", "streamSettings", "sniffing"):
                o[k] = json.dumps(o[k])
            return o
        for st, c in zip(stats, clients):
            st["uuid"] = "" if slim else c.get("id", "")
            st["lastOnline"] = 0
            if slim:
                st["subId"] = ""
        o["clientStats"] = stats
        o["originNodeGuid"] = self.state.setdefault("node_guid", str(uuid.uuid4()))
        if slim:
            o["settings"] = dict(inb["settings"],
                                 clients=[{"email": c.get("email", ""), "enable": c.get("enable", True)}
                                          for c in clients])
        return o

    def inbounds_list(self, req):
        inbs = sorted(self.state["inbounds"].values(), key=lambda i: i["id"])
        return env(True, "", [self.out_inbound(i) for i in inbs])

    def inbounds_slim(self, req):
        inbs = sorted(self.state["inbounds"].values(), key=lambda i: i["id"])
        return env(True, "", [self.out_inbound(i, True) for i in inbs])

    def inbound_get(self, req):
        inb = self.state["inbounds"].get(req.params["id"])
        if not inb:
            return fail("record not found", "Obtain")
        return env(True, "", self.out_inbound(inb))

    def inbound_add(self, req):
        b = self.body(req)
        parsed = {}
        for k in ("settings", "streamSettings", "sniffing"):
            v = b.get(k, {} if not self.legacy else "{}")
            if isinstance(v, str):
                try:
                    v = json.loads(v or "{}")
                except ValueError:
                    return fail("invalid JSON in %s" % k)
            elif self.legacy:
                return fail("json: cannot unmarshal object into Go struct field Inbound.%s of type string" % k)
            parsed[k] = v
        proto = b.get("protocol", "")
        try:
            port = int(b.get("port", 0))
        except (TypeError, ValueError):
            port = -1
        if not self.legacy:
            issues = []
            if proto not in PROTOCOLS:
                issues.append({"field": "protocol", "rule": "oneof", "param": " ".join(PROTOCOLS),
                               "message": "protocol must be one of %s" % ", ".join(PROTOCOLS)})
            if not 0 <= port <= 65535:
                issues.append({"field": "port", "rule": "max", "param": "65535",
                               "message": "port must be 0..65535"})
            if issues:
                return env(False, "request body failed validation",
                           {"issues": issues, "message": issues[0]["message"]})
        inb = {"id": 0, "up": 0, "down": 0, "total": int(b.get("total", 0) or 0),
               "remark": b.get("remark", ""), "enable": b.get("enable", True) not in (False, "false"),
               "expiryTime": int(b.get("expiryTime", 0) or 0), "listen": b.get("listen", ""),
               "port": port, "protocol": proto, "tag": "", **parsed}
        if not self.legacy:
            inb.update({"trafficReset": "never", "trafficResetDay": 1, "lastTrafficResetTime": 0,
                        "shareAddrStrategy": "node", "shareAddr": ""})
        inb["settings"].setdefault("clients", [])
        for other in self.state["inbounds"].values():
            same = other["port"] == port and (self.legacy or transport(other) == transport(inb))
            if same:
                return fail("Port already exists: %d" % port)
        tags = {i["tag"] for i in self.state["inbounds"].values()}
        if self.legacy:
            inb["tag"] = "inbound-%s%d" % (inb["listen"] + ":" if inb["listen"] else "", port)
        else:
            tag = b.get("tag") or ""
            if not tag or tag in tags:
                base_tag = "in-%d-%s" % (port, transport(inb))
                tag, n = base_tag, 2
                while tag in tags:
                    tag, n = "%s-%d" % (base_tag, n), n + 1
            inb["tag"] = tag
        inb["id"] = self.state["next_inbound_id"]
        if not self.legacy:
            inb["subSortIndex"] = inb["id"]
        self.state["next_inbound_id"] += 1
        self.state["inbounds"][str(inb["id"])] = inb
        if inb["enable"] and transport(inb) == "tcp":
            self.core.open(inb)
        self.save_state()
        added = self.out_inbound(inb)
        if not self.legacy:
            added.pop("originNodeGuid")
            added["clientStats"] = None
        return env(True, MSG_INBOUND_ADDED, added)

    def inbound_del(self, req):
        inb = self.state["inbounds"].pop(req.params["id"], None)
        if not inb:
            return fail("record not found")
        self.core.close(inb)
        self.save_state()
        return env(True, MSG_INBOUND_DELETED, int(req.params["id"]))

    # --------------------------------------------------------------- clients
    def all_clients(self):
        for inb in self.state["inbounds"].values():
            for c in inb["settings"].get("clients", []):
                yield inb, c

    @staticmethod
    def client_key(proto, c):
        if proto in ("vless", "vmess"):
            return c.get("id", "")
        if proto in ("trojan",):
            return c.get("password", "")
        if proto == "shadowsocks":
            return c.get("email", "")
        if proto == "hysteria":
            return c.get("auth", "")
        return c.get("email", "")

    def legacy_add_client(self, req):
        b = self.body(req)
        inb = self.state["inbounds"].get(str(b.get("id", "")))
        if not inb:
            return fail("record not found")
        try:
            s = b.get("settings", "")
            s = json.loads(s) if isinstance(s, str) else None
            if s is None:
                raise ValueError
        except ValueError:
            return fail("invalid settings", "Inbound has been successfully updated.")
        if "clients" not in s:
            return empty_response(500)  # gin panic on settings["clients"].([]any)
        new = s["clients"]
        existing = {c.get("email", "").lower() for _, c in self.all_clients()}
        for c in new:
            if not self.client_key(inb["protocol"], c) and inb["protocol"] != "shadowsocks":
                return fail("empty client ID")
            e = str(c.get("email", ""))
            if e and e.lower() in existing:
                return fail("Duplicate email: %s" % e)
            existing.add(e.lower())
        inb["settings"]["clients"].extend(new)
        self.save_state()
        return env(True, MSG_CLIENTS_ADDED)

    def legacy_del_client(self, req):
        inb = self.state["inbounds"].get(req.params["id"])
        if not inb:
            return fail("record not found")
        clients = inb["settings"]["clients"]
        if "email" in req.params:
            email = urllib.parse.unquote(req.params["email"])
            idx = [i for i, c in enumerate(clients) if c.get("email") == email]
            missing = "client with email %s not found" % email
        else:
            cid = urllib.parse.unquote(req.params["cid"])
            idx = [i for i, c in enumerate(clients) if self.client_key(inb["protocol"], c) == cid]
            missing = "Client Not Found In Inbound For ID: %s" % cid
        if not idx:
            return fail(missing)
        if len(clients) == 1:
            return fail("no client remained in Inbound")
        del clients[idx[0]]
        self.save_state()
        return env(True, MSG_CLIENT_DELETED)

    def legacy_traffics(self, req):
        email = urllib.parse.unquote(req.params["email"])
        for inb, c in self.all_clients():
            if c.get("email") == email:
                up, down = self.traffic_of(email)
                return env(True, "", {"id": 1, "inboundId": inb["id"], "enable": c.get("enable", True),
                                      "email": email, "up": up, "down": down,
                                      "expiryTime": c.get("expiryTime", 0),
                                      "total": c.get("totalGB", 0), "reset": c.get("reset", 0)})
        return env(True, "", None)

    def clients_add(self, req):
        if "json" not in (req.header("Content-Type") or ""):
            return fail("invalid request")  # ShouldBindJSON, JSON only
        b = self.body(req)
        c = dict(b.get("client") or {})
        iids = [str(i) for i in (b.get("inboundIds") or [])]
        email = str(c.get("email", ""))
        if not email:
            return fail("client email is required")
        if re.search(r"[/\\\s\x00-\x1f\x7f]", email):
            return fail("client email contains an invalid character: %r" % email)
        if not iids:
            return fail("at least one inbound is required")
        inbs = [self.state["inbounds"].get(i) for i in iids]
        if not all(inbs):
            return fail("record not found")
        prev = [(i, x) for i, x in self.all_clients() if x.get("email", "").lower() == email.lower()]
        if prev:
            p = prev[0][1]
            if p.get("email") != email:
                return fail("Duplicate email: %s" % email)
            if not c.get("subId") or c.get("subId") != p.get("subId"):
                return fail("email already in use: %s" % email)
            c = dict(p)  # idempotent re-post: reuse stored credentials
        elif c.get("subId") and any(x.get("subId") == c["subId"] for _, x in self.all_clients()):
            return fail("subId already in use: %s" % c["subId"])
        if not c.get("id"):
            c["id"] = str(uuid.uuid4())
        if not c.get("password"):
            c["password"] = secrets.token_hex(16)
        if not c.get("auth"):
            c["auth"] = secrets.token_hex(16)
        if not c.get("subId"):
            c["subId"] = str(uuid.uuid4())
        c["enable"] = True  # enable:false is forced to true on create
        c.setdefault("limitIp", 0)
        c.setdefault("totalGB", 0)
        c.setdefault("expiryTime", 0)
        c.setdefault("tgId", 0)
        c.setdefault("comment", "")
        c.setdefault("reset", 0)
        now_ms = int(time.time() * 1000)
        c.setdefault("created_at", now_ms)
        c["updated_at"] = now_ms
        c.pop("limitHwid", None)
        for inb in inbs:
            if any(x.get("email") == email for x in inb["settings"]["clients"]):
                continue  # already attached: silently skipped
            cc = dict(c)
            vision = (inb["protocol"] == "vless" and transport(inb) == "tcp" and
                      inb["streamSettings"].get("security") in ("tls", "reality"))
            if not vision:
                cc["flow"] = ""
            inb["settings"]["clients"].append(cc)
        self.save_state()
        return env(True, MSG_CLIENTS_ADDED)

    def find_client(self, email):
        found = [(i, c) for i, c in self.all_clients() if c.get("email") == email]
        return found

    def client_record(self, found):
        c = dict(found[0][1])
        c["uuid"] = c.get("id", "")
        return {"client": c, "inboundIds": sorted(i["id"] for i, _ in found)}

    def clients_get(self, req):
        found = self.find_client(urllib.parse.unquote(req.params["email"]))
        if not found:
            return env(False, "Obtain (record not found)")
        rec = self.client_record(found)
        rec.update(externalLinks=[], usedTraffic=0)
        return env(True, "", rec)

    def clients_list_paged(self, req):
        # v3.6.0's ClientPageResponse (internal/web/service/client_paging.go), what
        # the clients page polls every 5 s; no search, filter or sort here.
        try:
            page = max(1, int(req.query.get("page", 1)))
            size = max(1, int(req.query.get("pageSize", 25)))
        except ValueError:
            return env(False, "Obtain (bad page)")
        items = self.client_rows()
        off = [c.get("email") for c in items if not c.get("enable", True)]
        summary = {"total": len(items), "active": len(items) - len(off), "onlineCount": 0,
                   "depletedCount": 0, "expiringCount": 0, "deactiveCount": len(off),
                   "online": [], "depleted": [], "expiring": [], "deactive": off}
        return env(True, "", {"items": items[(page - 1) * size:page * size], "total": len(items),
                              "filtered": len(items), "page": page, "pageSize": size,
                              "summary": summary, "groups": []})

    def clients_list(self, req):
        return env(True, "", self.client_rows())

    def client_rows(self):
        seen, out = {}, []
        for inb, c in self.all_clients():
            seen.setdefault(c.get("email"), []).append((inb, c))
        for email, found in seen.items():
            rec = self.client_record(found)
            r = dict(rec["client"])
            r["inboundIds"] = rec["inboundIds"]
            out.append(r)
        return out

    def clients_del(self, req):
        email = urllib.parse.unquote(req.params["email"])
        if not self.find_client(email):
            return fail('client "%s" not found in any inbound or client record' % email)
        for inb in self.state["inbounds"].values():
            inb["settings"]["clients"] = [c for c in inb["settings"]["clients"] if c.get("email") != email]
        self.save_state()
        return env(True, MSG_CLIENT_DELETED)

    def clients_bulk_enable(self, req, enable):
        # v3.6.0 BulkSetEnable: {changed, skipped: [{email, reason}]} (skipped omitted when empty)
        emails = [str(e).strip() for e in (self.body(req).get("emails") or []) if str(e).strip()]
        changed, skipped = 0, []
        for email in dict.fromkeys(emails):
            found = self.find_client(email)
            if not found:
                skipped.append({"email": email, "reason": "client not found"})
                continue
            for _, c in found:
                c["enable"] = enable
            changed += 1
        self.save_state()
        obj = {"changed": changed}
        if skipped:
            obj["skipped"] = skipped
        return env(True, "", obj)

    def clients_update(self, req):
        # v3.6.0 UpdateByEmail: the body is a whole model.Client that replaces the stored one
        email = urllib.parse.unquote(req.params["email"])
        found = self.find_client(email)
        if not found:
            return fail("record not found")
        b = self.body(req)
        for _, c in found:
            for k in ("totalGB", "expiryTime", "enable", "limitIp", "comment", "reset", "tgId"):
                if k in b:
                    c[k] = b[k]
            c["updated_at"] = int(time.time() * 1000)
        self.save_state()
        return env(True, "Inbound client has been updated.", None)

    def clients_traffic(self, req):
        # v3.6.0 GetClientTrafficByEmail: xray.ClientTraffic, or a null obj for an unknown email.
        # Up and down: what the --hysteria-core cores carried for it (read live; the real
        # panel collects Xray's counters every 5 s), else 0.
        email = urllib.parse.unquote(req.params["email"])
        found = self.find_client(email)
        if not found:
            return env(True, "", None)
        inb, c = found[0]
        up, down = self.traffic_of(email)
        return env(True, "", {"id": 1, "inboundId": inb["id"], "enable": c.get("enable", True), "email": email,
                              "uuid": c.get("id", ""), "subId": c.get("subId", ""), "up": up, "down": down,
                              "expiryTime": c.get("expiryTime", 0), "total": c.get("totalGB", 0),
                              "reset": c.get("reset", 0), "lastOnline": 0})

    def clients_links(self, req):
        found = self.find_client(urllib.parse.unquote(req.params["email"]))
        return env(True, "", [self.link(i, c, "127.0.0.1") for i, c in found if self.link(i, c, "127.0.0.1")])

    # ---------------------------------------------------------- subscription
    def link(self, inb, c, host):
        ss = inb["streamSettings"] or {}
        port = inb["port"]
        if self.args.placeholder_links:
            host, port = "0.0.0.0", 1
        remark = urllib.parse.quote("%s-%s" % (inb["remark"], c.get("email", "")))
        if inb["protocol"] == "vless":
            q = [("type", ss.get("network", "tcp")), ("encryption", "none")]
            sec = ss.get("security", "none")
            q.append(("security", sec))
            if sec == "reality":
                rs = ss.get("realitySettings", {})
                rset = rs.get("settings", {})
                q += [("pbk", rset.get("publicKey", "")), ("fp", rset.get("fingerprint", "chrome")),
                      ("sni", (rs.get("serverNames") or [""])[0]),
                      ("sid", (rs.get("shortIds") or [""])[0]), ("spx", rset.get("spiderX", "/"))]
            if c.get("flow"):
                q.append(("flow", c["flow"]))
            return "vless://%s@%s:%d?%s#%s" % (c.get("id", ""), host, port,
                                               urllib.parse.urlencode(q), remark)
        if inb["protocol"] == "hysteria":
            tls = ss.get("tlsSettings", {})
            q = [("security", "tls"), ("alpn", ",".join(tls.get("alpn", ["h3"])))]
            if tls.get("serverName"):
                q.append(("sni", tls["serverName"]))
            pins = (tls.get("settings") or {}).get("pinnedPeerCertSha256") or []
            if pins:  # v3.6.0 hysteriaPinHex: bare lowercase hex
                q.append(("pinSHA256", ",".join(pin_hex(p) for p in pins)))
            for m in ((ss.get("finalmask") or {}).get("udp") or []):
                if m.get("type") == "salamander":
                    q += [("obfs", "salamander"),
                          ("obfs-password", (m.get("settings") or {}).get("password", ""))]
            return "hysteria2://%s@%s:%d?%s#%s" % (urllib.parse.quote(c.get("auth", ""), safe=""),
                                                   host, port, urllib.parse.urlencode(q), remark)
        if inb["protocol"] == "trojan":
            return "trojan://%s@%s:%d?security=%s#%s" % (c.get("password", ""), host, port,
                                                         ss.get("security", "none"), remark)
        return None

    def subscription(self, req):
        if time.monotonic() < self.sub_serves_at:
            return text_response("subscription service starting", 503)
        subid = urllib.parse.unquote(req.params["subid"])
        host = (req.header("Host") or "127.0.0.1").rsplit(":", 1)[0] or "127.0.0.1"
        links, clients = [], []
        for inb in sorted(self.state["inbounds"].values(), key=lambda i: i["id"]):
            if not inb["enable"] or inb["protocol"] not in SUB_PROTOCOLS:
                continue
            for c in inb["settings"].get("clients", []):
                if subid and c.get("subId") == subid:
                    lk = self.link(inb, c, host)
                    if lk:
                        links.append(lk)
                        clients.append(c)
        if not links:
            return empty_response(404) if not self.legacy else text_response("Error!", 400)
        if "text/html" in (req.header("Accept") or "") or req.query.get("html") == "1" \
                or req.query.get("view") == "html":
            return text_response("<!DOCTYPE html><html><body><h1>%s</h1></body></html>\n"
                                 % clients[0].get("email", ""), 200, HTML)
        total = 0 if any(int(c.get("totalGB", 0) or 0) == 0 for c in clients) else \
            sum(int(c.get("totalGB", 0)) for c in clients)
        exps = {int(c.get("expiryTime", 0) or 0) for c in clients}
        expire = (exps.pop() // 1000) if len(exps) == 1 else 0
        if self.args.foreign_sub_lines:
            links = ["#No Time Limit", "# profile-title: x"] + links + [
                "ssh://%s:pw@%s:22#ssh-%s" % (subid, host, subid), "snell://%s:8443?psk=%s#snell" % (host, subid)]
        if self.args.unreachable_hosts:
            uid = urllib.parse.quote(clients[0].get("id", "") or clients[0].get("auth", ""), safe="")
            links = links + ["vless://%s@none:443?type=tcp&security=none#no-address" % uid,
                             "vless://%s@none.sslip.io:443?type=tcp&security=none#sslip" % uid,
                             "vless://%s@yahoo.com:443?type=tcp&security=reality&sni=yahoo.com#decoy" % uid,
                             "trojan://%s@12.51--2026.12.07.time:1251#info" % uid]
        text = "".join(lk + "\n" for lk in links)
        body = base64.b64encode(text.encode()).decode() if self.args.sub_encrypt == "true" else text
        return text_response(body, 200, headers={
            "Subscription-Userinfo": "upload=0; download=0; total=%d; expire=%d" % (total, max(expire, 0)),
            "Profile-Update-Interval": "12"})


if __name__ == "__main__":
    if "setting" in sys.argv[1:]:
        xui_install.setting_command(sys.argv[sys.argv.index("setting") + 1:])
    elif "-v" in sys.argv[1:]:
        print("3.6.0")
    else:
        run_double(XuiDouble)
