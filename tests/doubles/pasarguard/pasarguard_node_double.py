#!/usr/bin/env python3
"""A stand-in for PasarGuard's node (test infrastructure only, stdlib only).

Reads what the real node v0.5.2 reads (config/config.go), from its environment:
SERVICE_PORT (62050), NODE_HOST (an IPv4 address, else 127.0.0.1), SSL_CERT_FILE,
SSL_KEY_FILE (the node's own certificate and key: a CA bundle fails as the real
node fails, "private key does not match public key"), API_KEY (a UUID).
Serves TLS on NODE_HOST:SERVICE_PORT. The PasarGuard double connects as the
panel does, trusting only the registered server_ca, and sends
"API_KEY <key>\\n"; the answer is "ok <node version> <xray version>\\n", or
"refused\\n" for another key. It carries no tunnel.
"""

import os
import re
import signal
import socket
import ssl
import sys
import threading
import uuid

NODE_VERSION = "0.5.2"
XRAY_VERSION = "26.3.27"


def fail(msg):
    print("[Error] " + msg, file=sys.stderr, flush=True)
    sys.exit(1)


def serve(conn, api_key):
    with conn:
        conn.settimeout(5)
        line = b""
        while not line.endswith(b"\n") and len(line) < 200:
            chunk = conn.recv(200)
            if not chunk:
                return
            line += chunk
        given = line.decode(errors="replace").strip().removeprefix("API_KEY ")
        conn.sendall(("ok %s %s\n" % (NODE_VERSION, XRAY_VERSION) if given == str(api_key)
                      else "refused\n").encode())


def main():
    port = int(os.environ.get("SERVICE_PORT", "62050"))
    host = os.environ.get("NODE_HOST", "0.0.0.0")
    if not re.fullmatch(r"(\d{1,3}\.){3}\d{1,3}", host):
        host = "127.0.0.1"
    try:
        api_key = uuid.UUID(os.environ.get("API_KEY", ""))
    except ValueError:
        fail("Failed to load API Key: invalid UUID")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(os.environ.get("SSL_CERT_FILE", "/var/lib/pg-node/certs/ssl_cert.pem"),
                            os.environ.get("SSL_KEY_FILE", "/var/lib/pg-node/certs/ssl_key.pem"))
    except (OSError, ssl.SSLError) as e:
        fail("tls: %s" % e)
    srv = socket.create_server((host, port))
    print("Starting Node: v%s on %s:%d" % (NODE_VERSION, host, port), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    while True:
        raw, _ = srv.accept()
        try:
            conn = ctx.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError):
            raw.close()
            continue
        threading.Thread(target=serve, args=(conn, api_key), daemon=True).start()


if __name__ == "__main__":
    main()
