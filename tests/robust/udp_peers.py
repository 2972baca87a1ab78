#!/usr/bin/env python3
"""UDP peers that send what is not a QUIC packet (tests/robust/network_case.sh).
Each binds 127.0.0.1 port 0 and prints "udp PORT" first.

  udp_peers.py empty-answers
      answers every datagram with an empty one, as a broken or hostile
      server would; on SIGTERM prints "answered N datagrams" and exits.
  udp_peers.py relay SERVER_HOST:PORT AFTER_S [LEN]
      a relay in front of a QUIC server: what the client sends goes to the
      server, what the server answers goes back from the relay's own
      address (the client's server). AFTER_S seconds after the client's
      first datagram it sends the client one datagram of LEN bytes (default
      0: empty) from that address, once, and prints "sent a datagram of LEN
      bytes". Runs until SIGTERM.
"""
import selectors
import signal
import socket
import sys
import time


def bound_socket():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    print(f"udp {s.getsockname()[1]}", flush=True)
    return s


def stop_on_term():
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    return stopped


def empty_answers():
    s = bound_socket()
    s.settimeout(0.2)
    stopped = stop_on_term()
    answered = 0
    while not stopped:
        try:
            _, peer = s.recvfrom(65536)
        except (socket.timeout, InterruptedError):
            continue
        s.sendto(b"", peer)
        answered += 1
    print(f"answered {answered} datagrams", flush=True)


def relay(server, after_s, length):
    front = bound_socket()
    back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    back.connect(server)
    selector = selectors.DefaultSelector()
    selector.register(front, selectors.EVENT_READ, "client")
    selector.register(back, selectors.EVENT_READ, "server")
    stopped = stop_on_term()
    client = None
    first = None
    sent = False
    while not stopped:
        try:
            events = selector.select(timeout=0.05)
        except InterruptedError:
            continue
        for key, _ in events:
            if key.data == "client":
                data, client = front.recvfrom(65536)
                first = first or time.monotonic()
                back.send(data)
            else:
                try:
                    data = back.recv(65536)
                except ConnectionRefusedError:
                    continue
                if client:
                    front.sendto(data, client)
        if not sent and first and time.monotonic() - first >= after_s:
            front.sendto(bytes(length), client)
            sent = True
            print(f"sent a datagram of {length} bytes", flush=True)


def main():
    mode = sys.argv[1]
    if mode == "empty-answers":
        empty_answers()
    elif mode == "relay":
        host, port = sys.argv[2].rsplit(":", 1)
        relay((host, int(port)), float(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    else:
        sys.exit(f"udp_peers.py: unknown mode {mode}")


if __name__ == "__main__":
    main()
