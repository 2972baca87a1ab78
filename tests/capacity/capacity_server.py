#!/usr/bin/env python3
"""An HTTP/1.1 server with a known capacity, for the capacity search's ctest.

    capacity_server.py --limit REQ_PER_S

One queue, served in order, each request taking exactly 1/REQ_PER_S seconds
of the server's time (a sleep, so the server costs little CPU): below the
limit a request waits about that long; above it the queue grows for as long
as the load lasts, and so does the latency. Keep-alive, any method and path,
answers 200 "ok". Binds 127.0.0.1 port 0 and prints {"port": N} on stdout.
"""
import argparse
import asyncio
import json
import sys
import time


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--limit", type=float, required=True)
    a = p.parse_args()
    service_s = 1.0 / a.limit
    next_free = 0.0

    async def handle(reader, writer):
        nonlocal next_free
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                if length:
                    await reader.readexactly(length)
                now = time.monotonic()
                next_free = max(now, next_free) + service_s
                await asyncio.sleep(next_free - now)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=4096)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
