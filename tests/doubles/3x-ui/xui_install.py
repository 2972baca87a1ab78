"""What the 3x-ui double shares with an installed x-ui (test infrastructure only).

Checked against the real x-ui v3.6.0 (main.go, internal/config/config.go,
internal/web/service/setting.go, internal/xray/process.go):
- XUI_DB_FOLDER holds x-ui.db (SQLite) with a key/value `settings` table and
  a `users` table; `x-ui setting -port -username -password -webBasePath
  -listenIP` writes them (creating the database with the default admin/admin
  first) and reports a failure on stdout while still exiting 0.
- At start the panel reads webPort, webListen, webBasePath, subPort and
  subListen from that table (XUI_PORT overrides webPort).
- Xray is XUI_BIN_FOLDER/xray-linux-<arch> (default "bin", relative to the
  working directory); without it getNewX25519Cert fails with the fork/exec
  error. The template's "api" inbound (default 127.0.0.1:62789) is where x-ui
  reaches Xray; the double binds that port as a stand-in for Xray and moves
  it when /panel/api/xray/update changes the template. When another x-ui
  holds that port, Xray fails to start and x-ui runs on (real x-ui v3.6.0
  passed compat with 62789 taken), so the stand-in starts without it.
"""

import os
import platform
import socket
import sqlite3
import sys
import threading

DEFAULT_TEMPLATE_API_PORT = 62789
DEFAULT_TEMPLATE_METRICS = "127.0.0.1:11111"


def db_path():
    folder = os.environ.get("XUI_DB_FOLDER", "/etc/x-ui")
    return os.path.join(folder, "x-ui.db")


def xray_binary():
    arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    return os.path.join(os.environ.get("XUI_BIN_FOLDER", "bin"), "xray-linux-" + arch)


def _open(create):
    path = db_path()
    if not create and not os.path.exists(path):
        return None
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE IF NOT EXISTS settings (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, value TEXT)")
    db.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY AUTOINCREMENT, username TEXT, password TEXT)")
    if db.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 0:
        db.execute("INSERT INTO users(username, password) VALUES ('admin', 'admin')")
    db.commit()
    return db


def _set(db, key, value):
    db.execute("DELETE FROM settings WHERE key = ?", (key,))
    db.execute("INSERT INTO settings(key, value) VALUES (?, ?)", (key, value))


def settings():
    """The settings table and the first user, or None without a database."""
    db = _open(create=False)
    if db is None:
        return None
    out = dict(db.execute("SELECT key, value FROM settings").fetchall())
    out["__user"], out["__password"] = db.execute("SELECT username, password FROM users ORDER BY id").fetchone()
    db.close()
    return out


def save_setting(key, value):
    db = _open(create=True)
    _set(db, key, value)
    db.commit()
    db.close()


def setting_command(argv):
    """`x-ui setting ...` as x-ui v3.6.0 prints it."""
    opts, i = {}, 0
    while i < len(argv):
        flag = argv[i].lstrip("-")
        if flag in ("port", "username", "password", "webBasePath", "listenIP") and i + 1 < len(argv):
            opts[flag] = argv[i + 1]
            i += 2
        else:
            print("flag provided but not defined: -%s" % flag)
            sys.exit(2)
    db = _open(create=True)
    if "port" in opts:
        _set(db, "webPort", opts["port"])
        print("Port set successfully: %s" % opts["port"])
    if "username" in opts or "password" in opts:
        if not opts.get("username") or not opts.get("password"):
            print("Failed to update username and password: username and password can not be empty")
        else:
            db.execute("UPDATE users SET username = ?, password = ? WHERE id = (SELECT MIN(id) FROM users)",
                       (opts["username"], opts["password"]))
            print("Username and password updated successfully")
    if "webBasePath" in opts:
        _set(db, "webBasePath", "/" + opts["webBasePath"].strip("/") + "/" if opts["webBasePath"].strip("/") else "/")
        print("Base URI path set successfully")
    if "listenIP" in opts:
        _set(db, "webListen", opts["listenIP"])
        print("listen %s set successfully" % opts["listenIP"], end="")
    db.commit()
    db.close()


class XrayStandIn:
    """A listener on the template's API port, as Xray's gRPC API would hold it."""

    def __init__(self, port):
        self.sock = None
        self.move(port)

    def move(self, port):
        if self.sock is not None and self.sock.getsockname()[1] == port:
            return
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError as e:
            if port != DEFAULT_TEMPLATE_API_PORT:
                raise
            # Another x-ui's first start holds the template port: the real
            # Xray then fails to start and x-ui runs on until bootstrap moves
            # the port (real x-ui v3.6.0 passed compat with 62789 held).
            print("xray stand-in: template port %d taken (%s); started without it" % (port, e), file=sys.stderr)
            s.close()
            return
        s.listen(16)
        self.sock = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    @staticmethod
    def _accept(s):
        while True:
            try:
                conn, _ = s.accept()
            except OSError:
                return
            conn.close()
