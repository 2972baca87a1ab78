#!/usr/bin/env python3
"""A TEST DOUBLE of a VPN panel, written by `stand new adapter` so that the
%%name%% adapter passes `stand compat` from its first build. It is not a
panel and was checked against no real program: replace it with the real
panel (config.command of compat/target.json.in) and the adapter's calls
with the ones that panel documents. Python 3 stdlib only.

  panel_double.py --listen 127.0.0.1 --port P --inbound-port Q --state-dir D

What it serves on LISTEN:PORT (JSON bodies; errors are {"error": "..."}):
  GET    /health                     200 {"status": "ok"}
  POST   /api/setup {username,password}   201 the first time (the admin), 409 afterwards
  POST   /api/login {username,password}   200 {"token"} or 401
  GET    /api/users?limit=N          200 {"users": [...]}          (Bearer token)
  POST   /api/users {name}           201 {id, name, password, subscription_url}, 409 a taken name
  GET    /api/users/ID               200 the user, 404
  DELETE /api/users/ID               204, 404
  GET    /sub/TOKEN                  200 text/plain: base64 of the user's link, 404 unknown
Without a valid token the /api/users routes answer 401; tokens live in
memory, so a restart signs everyone out. The link is
trojan://PASSWORD@LISTEN:INBOUND_PORT?security=none&type=tcp#NAME, and the
double accepts TCP connections on LISTEN:INBOUND_PORT, standing in for the
panel's core (it closes them at once: no tunnel). Admin and users persist in
STATE_DIR/state.json (written atomically), so a restart keeps them.
"""
import argparse
import base64
import json
import os
import secrets
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class State:
    def __init__(self, directory):
        self.path = os.path.join(directory, "state.json")
        self.lock = threading.Lock()
        self.tokens = set()
        self.data = {"admin": None, "users": {}, "next_id": 1}
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                self.data = json.load(f)

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


def handler_for(state, args):
    def link(user):
        return (f"trojan://{user['password']}@{args.listen}:{args.inbound_port}"
                f"?security=none&type=tcp#{user['name']}")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def reply(self, status, body=None, content_type="application/json"):
            data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def body(self):
            try:
                value = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            except ValueError:
                return None
            return value if isinstance(value, dict) else None

        def signed_in(self):
            auth = self.headers.get("Authorization", "")
            return auth.startswith("Bearer ") and auth[7:] in state.tokens

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            if path == "/health":
                return self.reply(200, {"status": "ok"})
            if path.startswith("/sub/"):
                for user in state.data["users"].values():
                    if user["token"] == path[5:]:
                        return self.reply(200, base64.b64encode(link(user).encode()), "text/plain; charset=utf-8")
                return self.reply(404, {"error": "unknown subscription"})
            if not self.signed_in():
                return self.reply(401, {"error": "not signed in"})
            if path == "/api/users":
                return self.reply(200, {"users": list(state.data["users"].values())[:1]})
            user = state.data["users"].get(path.rsplit("/", 1)[-1]) if path.startswith("/api/users/") else None
            return self.reply(200, user) if user else self.reply(404, {"error": "no such user"})

        def do_POST(self):
            body = self.body()
            if body is None:
                return self.reply(400, {"error": "the body must be a JSON object"})
            with state.lock:
                if self.path == "/api/setup":
                    if state.data["admin"]:
                        return self.reply(409, {"error": "an admin exists already"})
                    state.data["admin"] = {"username": body.get("username"), "password": body.get("password")}
                    state.save()
                    return self.reply(201, {})
                if self.path == "/api/login":
                    if not state.data["admin"] or body != state.data["admin"]:
                        return self.reply(401, {"error": "wrong username or password"})
                    token = secrets.token_hex(16)
                    state.tokens.add(token)
                    return self.reply(200, {"token": token})
                if self.path != "/api/users":
                    return self.reply(404, {"error": "no such route"})
                if not self.signed_in():
                    return self.reply(401, {"error": "not signed in"})
                name = body.get("name")
                if not isinstance(name, str) or not name:
                    return self.reply(400, {"error": "name: expected a non-empty string"})
                if any(u["name"] == name for u in state.data["users"].values()):
                    return self.reply(409, {"error": f"the name {name} is taken"})
                uid = str(state.data["next_id"])
                state.data["next_id"] += 1
                token = secrets.token_urlsafe(18)
                user = {"id": uid, "name": name, "password": secrets.token_hex(12), "token": token,
                        "subscription_url": "/sub/" + token}
                state.data["users"][uid] = user
                state.save()
                return self.reply(201, user)

        def do_DELETE(self):
            if not self.signed_in():
                return self.reply(401, {"error": "not signed in"})
            with state.lock:
                uid = self.path.rsplit("/", 1)[-1]
                if not self.path.startswith("/api/users/") or uid not in state.data["users"]:
                    return self.reply(404, {"error": "no such user"})
                del state.data["users"][uid]
                state.save()
                return self.reply(204)

    return Handler


def serve_core(listen, port):
    """The core's stand-in: accepts TCP connections and closes them."""
    sock = socket.create_server((listen, port))
    while True:
        conn, _ = sock.accept()
        conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--listen", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--inbound-port", type=int, required=True)
    parser.add_argument("--state-dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.state_dir, exist_ok=True)
    state = State(args.state_dir)
    server = ThreadingHTTPServer((args.listen, args.port), handler_for(state, args))
    threading.Thread(target=serve_core, args=(args.listen, args.inbound_port), daemon=True).start()
    print(f"listening on {args.listen}:{args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
