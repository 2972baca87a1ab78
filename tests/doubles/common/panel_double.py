"""Shared base for the VPN panel test doubles (test infrastructure only, stdlib only).

A double is a small local HTTP server that behaves like a panel's admin API as
the references describe it. Subclass ``PanelDouble``, register routes, and call
``run_double(MyDouble)`` from ``__main__``.

API (stable; later changes only add):

    class MyDouble(PanelDouble):
        name = "mypanel"                       # used in stats and log lines

        @classmethod
        def add_arguments(cls, parser): ...     # extra argparse flags (optional)

        def setup(self):                        # called once, after state is loaded
            self.add_listener("sub", self.args.sub_port)   # extra port (optional)
            self.route("POST", r"/api/login", self.login, name="login")
            self.route("GET", r"/api/users/(?P<id>[^/]+)", self.get_user,
                       name="get_user", admin=True)        # admin=True: target of
                                                            # the 401-after-restart fault
        def get_user(self, req):                # req: Request; return a Response
            return json_response({"id": req.params["id"]})

        def on_session_lost(self):              # fault 401-after-restart: drop sessions
            self.sessions.clear()

        def announce(self):                     # optional: extra stdout lines, printed
            print("Admin URL: ...", flush=True) # right after the "listening on" lines

    if __name__ == "__main__":
        run_double(MyDouble)

Request: .method .path .query (dict name -> first value) .query_list (parse_qs)
         .headers (dict, names as received) .header(name, default) (case-insensitive)
         .body (bytes) .text .json() (raises BadRequest on bad JSON) .form() (dict)
         .cookies (dict) .params (regex groups) .listener ("main" or extra name)
         .client_ip (peer address; X-Forwarded-For is NOT trusted by default)
Response(status=200, body=b"", headers=None, cookies=None)
         cookies: list of full Set-Cookie values (str)
helpers: json_response(obj, status=200, headers=None, cookies=None)
         text_response(text, status=200, content_type="text/plain; charset=utf-8", ...)
         empty_response(status, headers=None)
         TokenBucket(rate_per_s, burst).take() -> (ok: bool, retry_after_s: int)
         FixedWindow(limit, window_s).hit(key) -> (ok: bool, retry_after_s: int)
         random_token(n) (url-safe), now()
PanelDouble members:
         self.args (argparse Namespace), self.state (dict persisted in
         <state-dir>/state.json), self.save_state() (atomic write; no-op without
         --state-dir), self.lock (RLock, held around every handler call),
         self.stats.count(key), self.count_429(), self.base_url(listener="main").

Command line (common flags; subclasses add their own):
    --host 127.0.0.1 (fixed default; doubles listen on loopback only)
    --port N         0 = pick a free port. The first stdout line is always
                     "listening on 127.0.0.1:PORT" (flushed). Each extra listener
                     prints one more line "<name> listening on 127.0.0.1:PORT".
    --capture FILE   append every request (control endpoints included) as one JSON
                     line {"method","path","query","headers":{...},"body":"<raw>"}
                     plus "listener" and "ts".
    --state-dir DIR  persisted state (state.json, written atomically)
    --fault KIND --fault-count N --slow-seconds S   initial fault (see below)

Fault injection (also at runtime, on every listener):
    POST /__double/fault {"fault": "none|500|garbage|reset|slow|401-after-restart",
                          "count": N, "slow_seconds": S, "match": "substr"}
      count N > 0: the next N matching requests; count 0: every matching request
      until {"fault":"none"}. "match" (optional): only paths containing it.
      Control paths (/__double/...) are never faulted.
      500     -> HTTP 500, body "Internal Server Error" (text/plain)
      garbage -> HTTP 200, Content-Type application/json, non-JSON body
      reset   -> the socket is closed with RST, no answer at all
      slow    -> sleep slow_seconds (default 5) and then answer normally
      401-after-restart -> only admin=True routes: on_session_lost() is called
                 (all sessions dropped) and the request is then handled normally,
                 so the client gets the panel's real "not logged in" answer.
    GET /__double/stats -> {"requests": {route: n}, "status": {code: n},
                            "rate_limited_429": n, "faults_injected": {kind: n},
                            "fault": {current fault}}
    POST /__double/reset-stats -> zero the counters.
"""

import argparse
import base64
import json
import math
import os
import re
import secrets
import socket
import struct
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FAULT_KINDS = ("none", "500", "garbage", "reset", "slow", "401-after-restart")
GARBAGE_BODY = b"<html>\x00garbage {not json"


def now():
    return time.time()


def random_token(nbytes=16):
    return secrets.token_urlsafe(nbytes)


def b64(text):
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


class BadRequest(Exception):
    pass


class Response:
    def __init__(self, status=200, body=b"", headers=None, cookies=None):
        self.status = status
        self.body = body if isinstance(body, bytes) else str(body).encode("utf-8")
        self.headers = dict(headers or {})
        self.cookies = list(cookies or [])


def json_response(obj, status=200, headers=None, cookies=None):
    h = {"Content-Type": "application/json; charset=utf-8"}
    h.update(headers or {})
    body = json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return Response(status, body, h, cookies)


def text_response(text, status=200, content_type="text/plain; charset=utf-8",
                  headers=None, cookies=None):
    h = {"Content-Type": content_type}
    h.update(headers or {})
    return Response(status, text, h, cookies)


def empty_response(status, headers=None, cookies=None):
    return Response(status, b"", headers, cookies)


class TokenBucket:
    """Classic token bucket: starts full (burst), refills rate tokens per second.
    rate < 0 disables the limit."""

    def __init__(self, rate, burst):
        self.rate = float(rate)
        self.burst = float(burst)
        self.tokens = float(burst)
        self.t = time.monotonic()
        self.lock = threading.Lock()

    def take(self):
        if self.rate < 0:
            return True, 0
        with self.lock:
            t = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (t - self.t) * self.rate)
            self.t = t
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                return True, 0
            if self.rate == 0:
                return False, 3600
            return False, max(1, math.ceil((1.0 - self.tokens) / self.rate))


class FixedWindow:
    """Per-key fixed window: the window starts at the first hit after the previous
    one expired; past `limit` hits -> (False, seconds until the window ends).
    limit < 0 disables the limit."""

    def __init__(self, limit, window_s):
        self.limit = int(limit)
        self.window_s = float(window_s)
        self.windows = {}
        self.lock = threading.Lock()

    def hit(self, key):
        if self.limit < 0:
            return True, 0
        with self.lock:
            t = time.monotonic()
            start, n = self.windows.get(key, (None, 0))
            if start is None or t - start >= self.window_s:
                start, n = t, 0
            if n >= self.limit:
                self.windows[key] = (start, n)
                return False, max(1, math.ceil(start + self.window_s - t))
            self.windows[key] = (start, n + 1)
            return True, 0


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.requests = {}
        self.status = {}
        self.faults = {}
        self.rate_limited = 0

    def count(self, key, table="requests"):
        with self.lock:
            d = getattr(self, table)
            d[key] = d.get(key, 0) + 1

    def snapshot(self):
        with self.lock:
            return {"requests": dict(self.requests),
                    "status": {str(k): v for k, v in self.status.items()},
                    "rate_limited_429": self.rate_limited,
                    "faults_injected": dict(self.faults)}


class Request:
    def __init__(self, method, raw_path, headers, body, client_ip, listener):
        self.method = method
        parts = urllib.parse.urlsplit(raw_path)
        self.raw_path = raw_path
        self.path = parts.path
        self.raw_query = parts.query
        self.query_list = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
        self.query = {k: v[0] for k, v in self.query_list.items()}
        self.headers = headers
        self._lower = {k.lower(): v for k, v in headers.items()}
        self.body = body
        self.client_ip = client_ip
        self.listener = listener
        self.params = {}
        self.cookies = {}
        for part in self.header("cookie", "").split(";"):
            if "=" in part:
                k, v = part.split("=", 1)
                self.cookies[k.strip()] = v.strip()

    def header(self, name, default=None):
        return self._lower.get(name.lower(), default)

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")

    def json(self):
        if not self.body.strip():
            return {}
        try:
            return json.loads(self.body)
        except ValueError as e:
            raise BadRequest("invalid JSON: %s" % e)

    def form(self):
        return {k: v[0] for k, v in
                urllib.parse.parse_qs(self.text, keep_blank_values=True).items()}


class _Route:
    def __init__(self, method, pattern, handler, name, admin, listener):
        self.method = method
        self.regex = re.compile("^" + pattern + "$")
        self.handler = handler
        self.name = name
        self.admin = admin
        self.listener = listener


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without TCP_NODELAY a
    # keep-alive client waits for the delayed ACK (~40 ms) on every answer,
    # which no real panel does.
    disable_nagle_algorithm = True
    server_version = "panel-double"
    sys_version = ""
    double = None       # set per server class
    listener = "main"

    def log_message(self, fmt, *args):  # quiet; use --capture for traces
        pass

    def version_string(self):
        return self.server_version

    def _serve(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n > 0 else b""
        hdrs = {}
        for k, v in self.headers.items():
            hdrs[k] = hdrs[k] + ", " + v if k in hdrs else v
        req = Request(self.command, self.path, hdrs, body, self.client_address[0],
                      self.listener)
        self.double._capture(req)
        resp = self.double._dispatch(req)
        if resp is None:  # reset fault
            try:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
            except OSError:
                pass
            self.close_connection = True
            try:
                self.connection.close()
            except OSError:
                pass
            return
        self.double.stats.count(resp.status, "status")
        if resp.status == 429:
            with self.double.stats.lock:
                self.double.stats.rate_limited += 1
        self.send_response(resp.status)
        for k, v in resp.headers.items():
            self.send_header(k, v)
        for c in resp.cookies:
            self.send_header("Set-Cookie", c)
        self.send_header("Content-Length", str(len(resp.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(resp.body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class PanelDouble:
    name = "panel"

    def __init__(self, args):
        self.args = args
        self.lock = threading.RLock()
        self.stats = Stats()
        self.routes = []
        self.listeners = {}      # name -> server
        self._listener_order = []
        self.capture_lock = threading.Lock()
        self.fault = {"fault": "none", "count": 0, "slow_seconds": args.slow_seconds,
                      "match": ""}
        if args.fault and args.fault != "none":
            self.set_fault({"fault": args.fault, "count": args.fault_count,
                            "slow_seconds": args.slow_seconds, "match": args.fault_match})
        self.state_path = (os.path.join(args.state_dir, "state.json")
                           if args.state_dir else None)
        self.state = self.load_state()
        self._add_server("main", args.port)
        self.setup()

    # ----- to override -------------------------------------------------------
    @classmethod
    def add_arguments(cls, parser):
        pass

    def setup(self):
        pass

    def on_session_lost(self):
        pass

    def announce(self):
        pass

    # ----- registration ------------------------------------------------------
    def route(self, method, pattern, handler, name=None, admin=False, listener="main"):
        self.routes.append(_Route(method, pattern, handler, name or pattern, admin,
                                  listener))

    def add_listener(self, name, port):
        self._add_server(name, port)

    def _add_server(self, name, port):
        handler = type("H_" + name, (_Handler,), {"double": self, "listener": name})
        srv = _Server((self.args.host, port), handler)
        self.listeners[name] = srv
        self._listener_order.append(name)

    def port(self, listener="main"):
        return self.listeners[listener].server_address[1]

    def base_url(self, listener="main"):
        return "http://%s:%d" % (self.args.host, self.port(listener))

    # ----- state -------------------------------------------------------------
    def load_state(self):
        if self.state_path and os.path.exists(self.state_path):
            with open(self.state_path, encoding="utf-8") as f:
                return json.load(f)
        return {}

    def save_state(self):
        if not self.state_path:
            return
        with self.lock:
            os.makedirs(os.path.dirname(self.state_path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.state_path),
                                       prefix=".state.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                # dumps, not dump(indent=...): only dumps without an indent takes the C
                # encoder, 5x faster at 1000 users, and state is written on every change.
                f.write(json.dumps(self.state, sort_keys=True))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.state_path)

    # ----- faults / stats ----------------------------------------------------
    def set_fault(self, spec):
        kind = str(spec.get("fault", "none"))
        if kind not in FAULT_KINDS:
            raise BadRequest("unknown fault %r (one of %s)" % (kind, ", ".join(FAULT_KINDS)))
        with self.lock:
            self.fault = {"fault": kind, "count": int(spec.get("count", 1) or 0),
                          "slow_seconds": float(spec.get("slow_seconds",
                                                         self.args.slow_seconds)),
                          "match": str(spec.get("match", "") or "")}
        return dict(self.fault)

    def count_429(self):
        """Kept for subclasses; 429 answers are counted automatically."""

    def _take_fault(self, req, route):
        with self.lock:
            f = self.fault
            kind = f["fault"]
            if kind == "none" or (f["match"] and f["match"] not in req.path):
                return None
            if kind == "401-after-restart" and not (route and route.admin):
                return None
            if f["count"] > 0:
                f["count"] -= 1
                if f["count"] == 0:
                    self.fault = {"fault": "none", "count": 0,
                                  "slow_seconds": f["slow_seconds"], "match": ""}
            self.stats.count(kind, "faults")
            return kind, f["slow_seconds"]

    def _control(self, req):
        if req.path == "/__double/stats" and req.method == "GET":
            snap = self.stats.snapshot()
            snap["fault"] = dict(self.fault)
            snap["ports"] = {n: self.port(n) for n in self._listener_order}
            return json_response(snap)
        if req.path == "/__double/fault" and req.method == "POST":
            try:
                return json_response(self.set_fault(req.json()))
            except (BadRequest, ValueError, TypeError, AttributeError) as e:
                return json_response({"error": str(e)}, 400)
        if req.path == "/__double/reset-stats" and req.method == "POST":
            self.stats.reset()
            return json_response({})
        return json_response({"error": "unknown control endpoint"}, 404)

    # ----- dispatch ----------------------------------------------------------
    def _capture(self, req):
        if not self.args.capture:
            return
        line = json.dumps({"ts": now(), "listener": req.listener, "method": req.method,
                           "path": req.path, "query": req.raw_query,
                           "headers": req.headers, "body": req.text})
        with self.capture_lock:
            with open(self.args.capture, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def find_route(self, req):
        """(route, params) or (None, None); sets no state."""
        for r in self.routes:
            if r.listener != req.listener:
                continue
            m = r.regex.match(req.path)
            if m and (r.method == req.method or
                      (r.method == "GET" and req.method == "HEAD")):
                return r, m.groupdict()
        return None, None

    def not_found(self, req):
        """Answer for an unknown path; override for panel-specific behaviour."""
        return text_response("404 page not found", 404)

    def _dispatch(self, req):
        if req.path.startswith("/__double/"):
            self.stats.count("__double", "requests")
            return self._control(req)
        route, params = self.find_route(req)
        self.stats.count(route.name if route else "unmatched", "requests")
        fault = self._take_fault(req, route)
        if fault:
            kind, slow = fault
            if kind == "reset":
                return None
            if kind == "500":
                return text_response("Internal Server Error", 500)
            if kind == "garbage":
                return Response(200, GARBAGE_BODY,
                                {"Content-Type": "application/json; charset=utf-8"})
            if kind == "slow":
                time.sleep(slow)
            if kind == "401-after-restart":
                with self.lock:
                    self.on_session_lost()
        if route is None:
            with self.lock:
                return self.not_found(req)
        req.params = params
        try:
            with self.lock:
                return route.handler(req)
        except BadRequest as e:
            return self.bad_request(req, str(e))

    def bad_request(self, req, message):
        return json_response({"error": message}, 400)

    # ----- lifecycle ---------------------------------------------------------
    def serve_forever(self):
        for n in self._listener_order:
            prefix = "" if n == "main" else n + " "
            print("%slistening on %s:%d" % (prefix, self.args.host, self.port(n)),
                  flush=True)
        self.announce()
        threads = []
        for n in self._listener_order[1:]:
            t = threading.Thread(target=self.listeners[n].serve_forever, daemon=True)
            t.start()
            threads.append(t)
        try:
            self.listeners["main"].serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            for s in self.listeners.values():
                s.server_close()


def make_parser(cls):
    p = argparse.ArgumentParser(description="%s test double (test infrastructure only)"
                                % cls.name)
    p.add_argument("--host", default="127.0.0.1",
                   help="listen address (loopback only; default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    p.add_argument("--capture", metavar="FILE", help="append every request as JSON lines")
    p.add_argument("--state-dir", metavar="DIR", help="persist state here across restarts")
    p.add_argument("--fault", default="none", choices=FAULT_KINDS)
    p.add_argument("--fault-count", type=int, default=1, help="0 = until cleared")
    p.add_argument("--slow-seconds", type=float, default=5.0)
    p.add_argument("--fault-match", default="", help="only paths containing this text")
    cls.add_arguments(p)
    return p


def run_double(cls, argv=None):
    args = make_parser(cls).parse_args(argv)
    if hasattr(cls, "adjust_args"):
        cls.adjust_args(args)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("refusing to listen on %s: doubles are loopback only" % args.host)
    cls(args).serve_forever()
