#!/usr/bin/env python3
"""Moves a test config's busy ports to free ones, so a test with fixed ports
passes on a machine where something else holds one of them:

    relocate_ports.py IN OUT [TEXT...]

Reads IN (JSON, // comment lines allowed), finds every value of a key ending
in "port" (port, sub_port, inbound_port, node_port, ...), and for each that
something on 127.0.0.1 already holds (TCP or UDP) picks a port the kernel
gives as free and replaces that number everywhere in the file. Writes OUT,
then prints each TEXT with the same replacements, one per line (an expected
message that names a port). A port 0 is left alone.
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


def main():
    src, dst, texts = sys.argv[1], sys.argv[2], sys.argv[3:]
    text = open(src).read()
    ports = {int(p) for p in re.findall(r'"\w*port"\s*:\s*(\d+)', text) if int(p) != 0}
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
    for t in texts:
        print(apply(t))


if __name__ == "__main__":
    main()
