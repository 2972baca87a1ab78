#!/usr/bin/env python3
"""Runs a command while another program holds a port, as on a machine that
runs other services:  hold_port.py PORT -- CMD...  (TCP listen and UDP bind on
127.0.0.1:PORT; exits with CMD's code)."""
import socket
import subprocess
import sys

port = int(sys.argv[1])
cmd = sys.argv[3:] if sys.argv[2] == "--" else sys.exit("usage: hold_port.py PORT -- CMD...")
tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a TIME_WAIT of an earlier test is no holder
tcp.bind(("127.0.0.1", port))
tcp.listen()
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind(("127.0.0.1", port))
print(f"hold_port.py: holding 127.0.0.1:{port} (TCP and UDP)", flush=True)
sys.exit(subprocess.call(cmd))
