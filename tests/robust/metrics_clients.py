#!/usr/bin/env python3
"""Clients that press a `stand run --metrics-listen` listener, as a careless
or hostile scraper does (tests/robust/network_case.sh):

  metrics_clients.py idle HOST:PORT N
      opens N TCP connections that never send a byte and holds them; prints
      "opened N" when they are open; on SIGTERM prints how many the listener
      had closed ("N idle connections, M closed by the listener") and exits.
  metrics_clients.py slow HOST:PORT LIMIT_S
      three connections that never finish a request: one idle, one slowloris
      (a header line every half second) and one POST with "Expect:
      100-continue" whose body never comes; prints, for each, how long the
      listener kept it ("slowloris: closed by the listener after 5.0 s", or
      "slowloris: still open after LIMIT_S s").
  metrics_clients.py flood HOST:PORT SECONDS
      GET /metrics on one keep-alive connection, each sent when the last is
      answered, for SECONDS; prints "answered N in S s (R/s)".
"""
import selectors
import signal
import socket
import sys
import time


def address(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


def closed_by_peer(sock):
    """True when the peer closed or reset the connection (nothing blocks)."""
    try:
        return sock.recv(65536, socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def idle(at, n):
    held = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(5)
        s.connect(at)  # accepted by the kernel's backlog whether or not the listener takes it
        held.append(s)
    print(f"opened {n}", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    closed = sum(1 for s in held if closed_by_peer(s))
    print(f"{n} idle connections, {closed} closed by the listener", flush=True)


def slow(at, limit_s):
    start = time.monotonic()
    clients = {}
    for name, first in (("idle", b""),
                        ("slowloris", b"GET /metrics HTTP/1.1\r\nHost: stand\r\n"),
                        ("expect-continue", b"POST /metrics HTTP/1.1\r\nHost: stand\r\nContent-Length: 4096\r\n"
                                            b"Expect: 100-continue\r\n\r\n")):
        s = socket.create_connection(at, timeout=5)
        s.setblocking(False)
        if first:
            s.sendall(first)
        clients[name] = s
    selector = selectors.DefaultSelector()
    for name, s in clients.items():
        selector.register(s, selectors.EVENT_READ, name)
    closed = {}
    next_line = start + 0.5
    while len(closed) < len(clients) and time.monotonic() - start < limit_s:
        for key, _ in selector.select(timeout=0.1):
            name = key.data
            try:
                data = key.fileobj.recv(65536)
            except OSError:
                data = b""
            if not data:  # EOF or reset: the listener let it go
                closed[name] = time.monotonic() - start
                selector.unregister(key.fileobj)
        if time.monotonic() >= next_line and "slowloris" not in closed:
            next_line += 0.5
            try:
                clients["slowloris"].send(b"X-Slow: 1\r\n")
            except OSError:
                closed["slowloris"] = time.monotonic() - start
                selector.unregister(clients["slowloris"])
    for name in clients:
        if name in closed:
            print(f"{name}: closed by the listener after {closed[name]:.1f} s", flush=True)
        else:
            print(f"{name}: still open after {limit_s:g} s", flush=True)


def flood(at, seconds):
    s = socket.create_connection(at, timeout=10)
    request = b"GET /metrics HTTP/1.1\r\nHost: stand\r\n\r\n"
    answered = 0
    buffer = b""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        s.sendall(request)
        while True:  # one whole response: its headers, then Content-Length bytes
            head_end = buffer.find(b"\r\n\r\n")
            if head_end >= 0:
                length = 0
                for line in buffer[:head_end].split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if len(buffer) >= head_end + 4 + length:
                    buffer = buffer[head_end + 4 + length:]
                    break
            data = s.recv(65536)
            if not data:
                took = time.monotonic() - start
                print(f"answered {answered} in {took:.1f} s ({answered / took:.0f}/s); the listener closed", flush=True)
                return
            buffer += data
        answered += 1
    took = time.monotonic() - start
    print(f"answered {answered} in {took:.1f} s ({answered / took:.0f}/s)", flush=True)


def main():
    mode, at = sys.argv[1], address(sys.argv[2])
    if mode == "idle":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
        idle(at, int(sys.argv[3]))
    elif mode == "slow":
        slow(at, float(sys.argv[3]))
    elif mode == "flood":
        flood(at, float(sys.argv[3]))
    else:
        sys.exit(f"metrics_clients.py: unknown mode {mode}")


if __name__ == "__main__":
    main()
