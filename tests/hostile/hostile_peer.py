#!/usr/bin/env python3
"""A hostile HTTP/1.1 peer: one malformed behaviour per mode, for `stand load`.

Stdlib only (Python 3.11). It stands in for the broken and malicious servers a
load generator meets (issue 18, the break-it probe's 49 hostile peers); the
modes are the wire bytes themselves, so no real server is imitated, and
`control` / `interim` serve answers as nginx 1.22 (Debian 12) would frame
them.

    python3 hostile_peer.py --mode MODE --port PORT   (127.0.0.1 only)

Every connection is served on its own thread; a mode writes until the client
goes away. `MODES` lists them with what each sends.
"""

import argparse
import os
import socket
import socketserver
import struct
import time

OK = b"HTTP/1.1 200 OK\r\nServer: hostile\r\nContent-Length: 2\r\n\r\nok"


class Client:
    """One accepted connection: reads requests, writes what the mode says."""

    def __init__(self, sock):
        self.sock = sock
        self.pending = b""

    def request(self):
        """The next request's head, or None when the client closed."""
        while b"\r\n\r\n" not in self.pending:
            data = self.sock.recv(65536)
            if not data:
                return None
            self.pending += data
        head, _, self.pending = self.pending.partition(b"\r\n\r\n")
        return head

    def send(self, data):
        self.sock.sendall(data)

    def requests(self):
        while self.request() is not None:
            yield


def control(c):
    for _ in c.requests():
        c.send(OK)


def interim(c):
    # 100, 102 and 103 (Early Hints) before each answer: all skipped, as RFC 9110 15.2 says.
    for _ in c.requests():
        c.send(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
               b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" + OK)


def garbage(c):
    if c.request() is not None:
        c.send(bytes(range(256)) * 4)


def truncated_headers(c):
    if c.request() is not None:
        c.send(b"HTTP/1.1 200 OK\r\nServer: hostile\r\nContent-Ty")


def huge_content_length(c):
    if c.request() is not None:
        c.send(b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999999999\r\n\r\n" + b"x" * 65536)


def bad_chunk_size(c):
    for _ in c.requests():
        c.send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n")


def malformed_header(c):
    for _ in c.requests():
        c.send(b"HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\nok")


def interim_flood(c):
    # 1xx answers without end, as fast as the client reads them.
    flood = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\n" * 512
    if c.request() is not None:
        while True:
            c.send(flood)


def switching_protocols(c):
    # Any further bytes on the connection are not HTTP any more; a client
    # that sends another request on it gets a WebSocket-ish frame back.
    for _ in c.requests():
        c.send(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")


def status_999(c):
    for _ in c.requests():
        c.send(b"HTTP/1.1 999 Weird\r\nContent-Length: 0\r\n\r\n")


def slowloris(c):
    if c.request() is not None:
        for byte in OK:
            c.send(bytes([byte]))
            time.sleep(1)


def reset(c):
    if c.request() is not None:
        # SO_LINGER 0: close() sends RST instead of FIN (closed here: the
        # server's shutdown(SHUT_WR) afterwards would send a FIN first).
        c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        c.sock.close()


def http09(c):
    if c.request() is not None:
        c.send(b"<html><body>an HTTP/0.9 body, no status line</body></html>")


def enormous_header(c):
    if c.request() is not None:
        c.send(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (1 << 20) + b"\r\nContent-Length: 2\r\n\r\nok")


def header_flood(c):
    # Short header lines without end (1 MiB of them per write).
    lines = b"".join(b"X-Flood-%d: yes\r\n" % i for i in range(50000))
    if c.request() is not None:
        c.send(b"HTTP/1.1 200 OK\r\n")
        while True:
            c.send(lines)


def unsolicited(c):
    # Two answers per request, in one write.
    for _ in c.requests():
        c.send(OK + OK)


def unsolicited_late(c):
    # The answer, then 100 ms later a second one while the connection idles.
    for _ in c.requests():
        c.send(OK)
        time.sleep(0.1)
        c.send(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nunsolicit")


MODES = {
    "control": control,
    "interim": interim,
    "garbage": garbage,
    "truncated-headers": truncated_headers,
    "huge-content-length": huge_content_length,
    "bad-chunk-size": bad_chunk_size,
    "malformed-header": malformed_header,
    "1xx-flood": interim_flood,
    "101": switching_protocols,
    "status-999": status_999,
    "slowloris": slowloris,
    "reset": reset,
    "http09": http09,
    "enormous-header": enormous_header,
    "header-flood": header_flood,
    "unsolicited": unsolicited,
    "unsolicited-late": unsolicited_late,
}


class Peer(socketserver.ThreadingTCPServer):
    """Serves `mode` on 127.0.0.1:port, a thread per connection."""

    allow_reuse_address = True
    daemon_threads = True
    request_queue_size = 128  # the default 5 drops SYNs when a load opens connections at once

    def __init__(self, mode, port):
        behaviour = MODES[mode]

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                try:
                    behaviour(Client(self.request))
                except OSError:
                    pass  # the client went away: that is how most modes end

        super().__init__(("127.0.0.1", port), Handler)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", required=True, choices=sorted(MODES))
    parser.add_argument("--port", required=True, type=int)
    args = parser.parse_args()
    peer = Peer(args.mode, args.port)
    print(f"hostile peer {args.mode} on 127.0.0.1:{args.port} (pid {os.getpid()})", flush=True)  # it listens
    peer.serve_forever()


if __name__ == "__main__":
    main()
