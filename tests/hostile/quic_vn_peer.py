#!/usr/bin/env python3
"""A UDP peer that answers every QUIC long-header packet with Version
Negotiation (RFC 9000 17.2.1) offering only versions no client speaks:

    python3 quic_vn_peer.py [--port PORT] [--offer-client-version]

PORT 0 (the default): the kernel picks; the first line printed says where it
listens. --offer-client-version also lists the version the client sent,
which RFC 9000 6.2 says the client must ignore (a broken peer).
"""
import argparse
import os
import socket
import struct


def version_negotiation(packet, offer_client_version):
    if len(packet) < 7 or not packet[0] & 0x80:
        return None
    version = packet[1:5]
    dcid_len = packet[5]
    dcid = packet[6:6 + dcid_len]
    at = 6 + dcid_len
    if at >= len(packet):
        return None
    scid_len = packet[at]
    scid = packet[at + 1:at + 1 + scid_len]
    versions = [0x1A2A3A4A, 0x0A0A0A0A + 0x10]
    body = b"".join(struct.pack("!I", v) for v in versions)
    if offer_client_version:
        body += version
    # Unused bits random, version 0, the client's source CID as the destination and vice versa.
    return bytes([0x80 | (os.urandom(1)[0] & 0x7F)]) + b"\0\0\0\0" + bytes([len(scid)]) + scid + \
        bytes([len(dcid)]) + dcid + body


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--offer-client-version", action="store_true")
    args = parser.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", args.port))
    print(f"quic vn peer on 127.0.0.1:{sock.getsockname()[1]} (pid {os.getpid()})", flush=True)
    while True:
        packet, peer = sock.recvfrom(65536)
        answer = version_negotiation(packet, args.offer_client_version)
        if answer:
            sock.sendto(answer, peer)


if __name__ == "__main__":
    main()
