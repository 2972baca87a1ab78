#!/usr/bin/env python3
"""`stand load --http3` against a server that answers every Initial with
Version Negotiation (quic_vn_peer.py, on a port the kernel picks): every
connection is an error with a named reason, never "0 errors". Without the
client's version in the list the reason is the Version Negotiation; with it
(which the client must ignore) the handshakes never finish and each is
counted when the load ends.

    check_quic_vn.py STAND
"""
import json
import os
import re
import subprocess
import sys

PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quic_vn_peer.py")
VN = ("connect", "the server answered with Version Negotiation (no QUIC version in common)")
AT_END = ("timeout", "no QUIC handshake by the end of the load")  # a handshake the load's end cut short
CASES = [([], VN), (["--offer-client-version"], AT_END)]


def main():
    stand = sys.argv[1]
    failed = 0
    for args, (kind, reason) in CASES:
        peer = subprocess.Popen([sys.executable, PEER, *args], stdout=subprocess.PIPE, text=True)
        try:
            port = re.search(r":(\d+) ", peer.stdout.readline()).group(1)
            out = subprocess.run([stand, "load", "--http3", f"https://localhost:{port}/", "-d", "2s", "-c", "4", "-t", "1",
                                  "--json"], capture_output=True, text=True, timeout=60)
        finally:
            peer.terminate()
            peer.wait()
        result = json.loads(out.stdout)
        errors = result["requests"]["errors"]
        reasons = result.get("error_reasons", {})
        named = reasons.get(kind, {}).get(reason, 0)
        cut_short = reasons.get(AT_END[0], {}).get(AT_END[1], 0) if (kind, reason) != AT_END else 0
        ok = named > 0 and named + cut_short == errors  # every error named, the case's own reason first
        print(f"{'ok  ' if ok else 'FAIL'} {' '.join(args) or 'plain'}: {errors} errors, {named} as {kind}: {reason}")
        if not ok:
            print(f"     error_reasons: {result.get('error_reasons')}")
        failed += not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
