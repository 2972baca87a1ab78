"""Xray's inbounds in the 3x-ui double: a TCP listener per enabled TCP inbound,
so "the core serves the link endpoint" can be checked (test infrastructure only).

Real 3x-ui (v3.6.0) hands each inbound to Xray, which listens on the inbound's
"listen" address, all interfaces when it is "" (seen on the real panel, issue
14). The double listens on 127.0.0.1 for "" (tests bind loopback only);
the fixture --bind-all binds 0.0.0.0 whatever the inbound says (run it in a
private network namespace). A port already taken is logged to stderr, as Xray logs a failed
inbound, and the panel goes on.
"""

import socket
import sys
import threading

from xui_install import XrayStandIn


class InboundListeners:
    def __init__(self, bind_all):
        self.bind_all = bind_all
        self.sockets = {}  # port -> socket

    def address(self, listen):
        if self.bind_all:
            return "0.0.0.0"
        return listen if listen in ("127.0.0.1", "::1", "localhost") else "127.0.0.1"

    def open(self, inbound):
        port = int(inbound.get("port") or 0)
        if port in self.sockets or port <= 0:
            return
        host = self.address(inbound.get("listen") or "")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        s = socket.socket(family, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            s.listen(16)
        except OSError as e:
            s.close()
            print("inbound %s:%d: %s" % (host, port, e), file=sys.stderr, flush=True)
            return
        self.sockets[port] = s
        # accepted and closed at once: enough to show the core serves the port
        threading.Thread(target=XrayStandIn._accept, args=(s,), daemon=True).start()

    def close(self, inbound):
        s = self.sockets.pop(int(inbound.get("port") or 0), None)
        if s is not None:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
