#!/usr/bin/env python3
"""A hostile HTTP/1.1 peer: one malformed behaviour per mode, for `stand load`.

Stdlib only (Python 3.11). It stands in for the broken and malicious servers a
load generator meets (issue 18, the break-it probe's 49 hostile peers); the
modes are the wire bytes themselves, so no real server is imitated;
`control` and `interim` answer correctly (a Content-Length body, as nginx
1.22 frames a fixed one; `interim` adds 100, 102 and 103 before it).

    python3 hostile_peer.py --mode MODE --port PORT   (127.0.0.1 only; PORT 0: the kernel picks, printed)

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


def answer_each(data):
    """A mode that answers every request with `data` on a kept-alive connection."""
    def mode(c):
        for _ in c.requests():
            c.send(data)
    return mode


def answer_once(data):
    """A mode that answers the first request with `data`, then closes."""
    def mode(c):
        if c.request() is not None:
            c.send(data)
    return mode


def flood(head, chunk):
    """A mode that answers the first request with `head`, then `chunk` without end."""
    def mode(c):
        if c.request() is not None:
            c.send(head)
            while True:
                c.send(chunk)
    return mode


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


def unsolicited_late(c):
    # The answer, then 100 ms later a second one while the connection idles.
    for _ in c.requests():
        c.send(OK)
        time.sleep(0.1)
        c.send(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nunsolicit")


# 100, 102 and 103 (Early Hints) before each answer: all skipped, as RFC 9110 15.2 says.
INTERIM = (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
           b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")

MODES = {
    "control": answer_each(OK),
    "interim": answer_each(INTERIM + OK),
    "garbage": answer_once(bytes(range(256)) * 4),
    "truncated-headers": answer_once(b"HTTP/1.1 200 OK\r\nServer: hostile\r\nContent-Ty"),
    "huge-content-length": answer_once(b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999999999\r\n\r\n" + b"x" * 65536),
    "bad-chunk-size": answer_each(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n"),
    "malformed-header": answer_each(b"HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\nok"),
    "header-nul": answer_each(b"HTTP/1.1 200 OK\r\nX-Evil: a\x00b\r\nContent-Length: 2\r\n\r\nok"),
    # 1xx answers without end, as fast as the client reads them.
    "1xx-flood": flood(b"", b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
                            b"HTTP/1.1 103 Early Hints\r\n\r\n" * 512),
    # Answered again with a 101 should the client send another request on it.
    "101": answer_each(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
    "status-999": answer_each(b"HTTP/1.1 999 Weird\r\nContent-Length: 0\r\n\r\n"),
    "slowloris": slowloris,
    "reset": reset,
    "http09": answer_once(b"<html><body>an HTTP/0.9 body, no status line</body></html>"),
    "enormous-header": answer_once(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (1 << 20) + b"\r\nContent-Length: 2\r\n\r\nok"),
    # Short header lines without end (about 1 MiB per write).
    "header-flood": flood(b"HTTP/1.1 200 OK\r\n", b"".join(b"X-Flood-%d: yes\r\n" % i for i in range(50000))),
    "unsolicited": answer_each(OK + OK),  # two answers per request, in one write
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
    parser.add_argument("--port", required=True, type=int, help="0: one the kernel picks (printed)")
    args = parser.parse_args()
    peer = Peer(args.mode, args.port)
    port = peer.server_address[1]
    print(f"hostile peer {args.mode} on 127.0.0.1:{port} (pid {os.getpid()})", flush=True)  # it listens
    peer.serve_forever()


if __name__ == "__main__":
    main()
