#!/usr/bin/env python3
"""A panel adapter's ABI 1.3 user calls against its target (stand.panel/1: set_user_enabled, set_user_quota,
user_traffic), through the plugin worker as the host calls them, and what the panel then serves:

  * set_user_enabled(false) twice (the second call finds the user off already): the user's subscription no
    longer carries the links it had, the other user's is unchanged; set_user_enabled(true) twice: the links
    are back as they were;
  * set_user_quota(5 GiB), then (0): the subscription's Subscription-Userinfo says total=<the quota>;
  * user_traffic: {"total_bytes": N[, "up_bytes", "down_bytes"]}, counts >= 0 adding up (--total-bytes: N
    must be that, a double that carries no traffic says 0);
  * each of the three for an id no user has: STAND_E_NOT_FOUND "<plugin>: <call>: no user <id>".

    check_panel_user_calls.py STAND PLUGIN_DIR PLUGIN TARGET [--unknown-id ID] [--total-bytes N] [--box DIR]

TARGET is a compat target file (its "config", run outside a box unless --box names the cgroup directories of
one, and "ready_timeout_s"); busy ports are moved (relocate_ports.py).
Exit 0 when every check passes, 1 naming the first that does not. Test infrastructure only, stdlib only.
"""

import argparse
import base64
import binascii
import json
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from relocate_ports import relocate  # noqa: E402
from plugin_worker import PluginWorker  # noqa: E402

STAND_E_NOT_FOUND = -10
QUOTA = 5 << 30


class CheckFailed(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise CheckFailed(what)


def read_target(path):
    text = "\n".join(line for line in open(path) if not line.lstrip().startswith("//"))
    return json.loads(text)


def http(request, timeout=10):
    """(status, headers with lower-case names, body) of a request as a plugin describes one."""
    req = urllib.request.Request(request["url"], method=request.get("method", "GET"),
                                 headers=request.get("headers") or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


class Checks:
    def __init__(self, worker, plugin):
        self.w, self.plugin = worker, plugin

    def ok(self, method, args=None):
        code, error, output = self.w.call(method, args)
        expect(code >= 0, "%s(%s) failed: %d %s" % (method, json.dumps(args or {}), code, error))
        return output

    def start(self, ready_timeout_s):
        for method in ("lifecycle.install", "lifecycle.start"):
            self.ok(method)
        probe = self.ok("lifecycle.readiness")
        until = time.time() + ready_timeout_s
        while True:
            try:
                if http(probe, 2)[0] in probe.get("expect_status", [200]):
                    break
            except OSError:
                pass
            expect(time.time() < until, "not ready within %d s: %s" % (ready_timeout_s, probe["url"]))
            time.sleep(0.2)
        self.ok("panel.bootstrap")

    def subscription(self, user_id):
        """(headers, link lines) the user's subscription serves now; no lines when it is refused."""
        status, headers, body = http(self.ok("panel.subscription_request", {"id": user_id}))
        if status >= 300:
            return headers, []
        try:
            body = base64.b64decode(body, validate=True)
        except binascii.Error:
            pass  # links in plain text
        return headers, [line for line in body.decode().splitlines() if line.strip()]

    def switch(self, a, b):
        before_a, before_b = self.subscription(a)[1], self.subscription(b)[1]
        expect(before_a, "user %s's subscription has no links before set_user_enabled" % a)
        for _ in range(2):
            self.ok("panel.set_user_enabled", {"id": a, "enabled": False})
        off = self.subscription(a)[1]
        expect(not set(off) & set(before_a), "disabled, user %s's subscription still carries %s" % (a, off))
        expect(self.subscription(b)[1] == before_b, "disabling user %s changed user %s's links" % (a, b))
        for _ in range(2):
            self.ok("panel.set_user_enabled", {"id": a, "enabled": True})
        again = self.subscription(a)[1]
        expect(again == before_a, "enabled again, user %s's links are %s, not %s" % (a, again, before_a))

    def quota(self, a):
        for quota in (QUOTA, 0):
            self.ok("panel.set_user_quota", {"id": a, "quota_bytes": quota})
            info = self.subscription(a)[0].get("subscription-userinfo", "")
            total = re.search(r"\btotal=(\d+)", info)
            expect(total and int(total.group(1)) == quota,
                   "after set_user_quota(%d), Subscription-Userinfo is %r" % (quota, info))

    def traffic(self, a, total_bytes):
        t = self.ok("panel.user_traffic", {"id": a})
        counts = {k: v for k, v in t.items() if k in ("total_bytes", "up_bytes", "down_bytes")}
        expect(set(t) in ({"total_bytes"}, {"total_bytes", "up_bytes", "down_bytes"}), "user_traffic answered %s" % t)
        expect(all(isinstance(v, int) and v >= 0 for v in counts.values()), "user_traffic answered %s" % t)
        expect(len(t) == 1 or t["up_bytes"] + t["down_bytes"] == t["total_bytes"], "up + down != total: %s" % t)
        expect(total_bytes is None or t["total_bytes"] == total_bytes,
               "user_traffic answered %s, not total_bytes %s" % (t, total_bytes))

    def unknown(self, unknown_id):
        for method, args in (("set_user_enabled", {"enabled": False}), ("set_user_quota", {"quota_bytes": 1}),
                             ("user_traffic", {})):
            code, error, _ = self.w.call("panel." + method, dict(args, id=unknown_id))
            wanted = "%s: %s: no user %s" % (self.plugin, method, unknown_id)
            expect((code, error) == (STAND_E_NOT_FOUND, wanted),
                   "%s(%s) answered %d %r, not not-found %r" % (method, unknown_id, code, error, wanted))


def run(args, work):
    target_file = os.path.join(work, "target.json")
    relocate(args.target, target_file)
    target = read_target(target_file)
    plugin_file = os.path.join(args.plugin_dir, args.plugin + ".so")
    config, boxes = target["config"], {"measured": args.box}
    if not args.box:  # no box: the calls are what is checked, not what they cost
        config, boxes = dict(config, box=""), {}
    with PluginWorker(args.stand, plugin_file, config, os.path.join(work, "run"), boxes) as w:
        c = Checks(w, args.plugin)
        try:
            c.start(int(target.get("ready_timeout_s", 60)))
            a, b = (c.ok("panel.create_user", {"name": n})["id"] for n in ("hooks-a", "hooks-b"))
            c.switch(a, b)
            c.quota(a)
            c.traffic(a, args.total_bytes)
            c.unknown(args.unknown_id)
            for user in (a, b):
                c.ok("panel.delete_user", {"id": user})
        finally:
            for method in ("lifecycle.stop", "lifecycle.wipe"):
                w.call(method)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("stand")
    p.add_argument("plugin_dir")
    p.add_argument("plugin")
    p.add_argument("target")
    p.add_argument("--unknown-id", default="999999")
    p.add_argument("--total-bytes", type=int)
    p.add_argument("--box", action="append", default=[], metavar="CGROUP_DIR",
                   help="the box 'measured' (a panel whose parts name it, as native Remnawave's do)")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="stand-user-calls.")
    os.chmod(work, 0o755)  # a panel part may run as its own user (PostgreSQL as postgres) and must reach its data
    try:
        run(args, work)
    except CheckFailed as e:
        print("FAIL %s: %s" % (args.plugin, e))
        print("(worker log: %s/run/worker.log; kept)" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("ok %s: set_user_enabled, set_user_quota, user_traffic and their not-found answers" % args.plugin)
    return 0


if __name__ == "__main__":
    sys.exit(main())
