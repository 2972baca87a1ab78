#!/usr/bin/env python3
"""Moves a test config's busy ports to free ones, so a test with fixed ports
passes on a machine where something else holds one of them:

    relocate_ports.py IN OUT [TEXT...]

Reads IN (JSON, // comment lines allowed), finds every value of a key ending
in "port" (port, sub_port, inbound_port, node_port, ...) and every
"127.0.0.1:PORT" in its text (an argv's --listen, a URL), and for each that
something on 127.0.0.1 already holds (TCP or UDP) picks a port the kernel
gives as free and replaces that number everywhere in the file. Writes OUT,
then prints each TEXT with the same replacements, one per line (an expected
message that names a port). A port 0 is left alone.

    relocate_ports.py --free-block START COUNT

prints the first of COUNT consecutive free ports, START itself when they are
free (free_block() when imported).
"""
import re
import socket
import sys


def free(port):
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        s = socket.socket(socket.AF_INET, kind)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        finally:
            s.close()
    return True


def fresh(taken):
    while True:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        if port not in taken and free(port):
            return port


def free_block(start, count):
    base = start
    while base + count <= 65535:
        if all(free(p) for p in range(base, base + count)):
            return base
        base += count
    raise SystemExit(f"relocate_ports.py: no {count} free ports from {start} up")


def relocate(src, dst, texts=()):
    """Writes `src` to `dst` with its busy ports moved; `texts` with the same replacements."""
    text = open(src).read()
    found = re.findall(r'"\w*port"\s*:\s*(\d+)', text) + re.findall(r"127\.0\.0\.1:(\d+)", text)
    ports = {int(p) for p in found if 0 < int(p) < 65536}
    moved = {}
    for port in sorted(ports):
        if not free(port):
            moved[port] = fresh(ports | set(moved.values()))
            print(f"relocate_ports.py: {src}: port {port} is busy here, using {moved[port]}", file=sys.stderr)

    def apply(t):
        for old, new in moved.items():
            t = re.sub(rf"(?<!\d){old}(?!\d)", str(new), t)
        return t

    open(dst, "w").write(apply(text))
    return [apply(t) for t in texts]


def main():
    if sys.argv[1] == "--free-block":
        print(free_block(int(sys.argv[2]), int(sys.argv[3])))
        return
    for t in relocate(sys.argv[1], sys.argv[2], sys.argv[3:]):
        print(t)


if __name__ == "__main__":
    main()
