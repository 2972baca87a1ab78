#!/usr/bin/env python3
"""Prints a port that is free for both TCP and UDP on 127.0.0.1."""
import socket
while True:
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.bind(("127.0.0.1", 0))
    port = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", port))
    except OSError:
        t.close()
        continue
    u.close()
    t.close()
    print(port)
    break
