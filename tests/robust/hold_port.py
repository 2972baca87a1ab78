#!/usr/bin/env python3
"""Runs a command while another program holds a port, as on a machine that
runs other services:  hold_port.py PORT -- CMD...  (TCP listen and UDP bind on
127.0.0.1:PORT; exits with CMD's code)."""
import socket
import subprocess
import sys

port = int(sys.argv[1])
cmd = sys.argv[3:] if sys.argv[2] == "--" else sys.exit("usage: hold_port.py PORT -- CMD...")
held = []
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    s = socket.socket(socket.AF_INET, kind)
    if kind == socket.SOCK_STREAM:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a TIME_WAIT of an earlier test is no holder
    try:
        s.bind(("127.0.0.1", port))
    except OSError:  # another program holds it already (a second suite's hold_port.py): busy all the same
        print(f"hold_port.py: 127.0.0.1:{port} is held by another program already", flush=True)
        continue
    if kind == socket.SOCK_STREAM:
        s.listen()
    held.append(s)
print(f"hold_port.py: 127.0.0.1:{port} is busy (TCP and UDP)", flush=True)
sys.exit(subprocess.call(cmd))
