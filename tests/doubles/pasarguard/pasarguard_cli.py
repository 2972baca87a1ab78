#!/usr/bin/env python3
"""Stand-in for `pasarguard cli generate-temp-key` (PasarGuard v5, cli/admin.py), for the
PasarGuard test double. Test infrastructure only, stdlib only.

    pasarguard_cli.py generate-temp-key --state-dir DIR   # like the real CLI: writes the
                                                          # key into the panel's store
    pasarguard_cli.py generate-temp-key --url BASE        # asks a running double

Prints, like the real CLI (without the colours):
    Temp key: <uuid4>
    Expires at: YYYY-MM-DD HH:MM:SS UTC
    This key is valid for 5 minutes and can only be used once.
The seed harness parses the key with the regex `Temp key: (\\S+)`.
"""

import argparse
import datetime
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pasarguard_double import new_temp_key, with_temp_keys  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(prog="pasarguard-cli")
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate-temp-key", help="one-time temp key for owner setup")
    where = g.add_mutually_exclusive_group(required=True)
    where.add_argument("--state-dir", help="the double's --state-dir")
    where.add_argument("--url", help="base URL of a running double, e.g. http://127.0.0.1:8000")
    args = p.parse_args(argv)
    if args.state_dir:
        k = with_temp_keys(args.state_dir, new_temp_key)
    else:
        req = urllib.request.Request(args.url.rstrip("/") + "/__double/temp-key", data=b"{}",
                                     method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            k = json.loads(r.read())
    exp = datetime.datetime.fromtimestamp(k["expires_at"], datetime.timezone.utc)
    print("Temp key: %s" % k["key"])
    print("Expires at: %s" % exp.strftime("%Y-%m-%d %H:%M:%S UTC"))
    print("This key is valid for 5 minutes and can only be used once.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
