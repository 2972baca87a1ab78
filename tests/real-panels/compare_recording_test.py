#!/usr/bin/env python3
"""Tests of compare_recording.py (ctest compat.recorded.comparer).

usage: compare_recording_test.py RECORDINGS_DIR

Every tests/data/real-panels/*/recording.json, and a small one made here, is
copied with one status changed: the comparer must exit 1 reporting exactly
that status. The small one also checks the other kinds of difference and the
allow-list.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARER = os.path.join(HERE, "compare_recording.py")
RECORDINGS_DIR = None


def exchange(label, method, path, status, body, checks=("panel.start-ready",)):
    return {"label": label, "method": method, "path": path, "status": status,
            "response": {"content_type": "application/json", "cookies": [], "headers": [], "body": body},
            "checks": list(checks)}


SMALL = {
    "panel": "example", "version": "1.0", "origin": "recorded", "how": "made by compare_recording_test.py",
    "exchanges": [
        exchange("example login", "POST", "/login", 200, {"success": "boolean", "obj": "null"}),
        exchange("example list_users", "GET", "/api/users", 200, {"users": [{"id": "number", "name": "string"}]}),
        exchange("example create_user", "POST", "/api/user", 409, {"detail": "string"}),
        exchange("compat subscription", "GET", "/sub/{id}", 200, "text"),
    ],
}


class Comparer:
    def __init__(self, test):
        self.test = test
        self.dir = tempfile.TemporaryDirectory()
        test.addCleanup(self.dir.cleanup)

    def write(self, name, doc):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return path

    def run(self, recorded, actual, allow=None):
        args = [sys.executable, COMPARER, self.write("recorded.json", recorded), self.write("actual.json", actual)]
        if allow is not None:
            args += ["--allow", self.write("allowed-differences.json", allow)]
        p = subprocess.run(args, capture_output=True, text=True)
        return p.returncode, p.stdout.splitlines(), p.stderr


def unused_status(recording, exchange_):
    used = {e["status"] for e in recording["exchanges"]
            if (e["label"], e["method"], e["path"]) == (exchange_["label"], exchange_["method"], exchange_["path"])}
    return next(s for s in range(599, 99, -1) if s not in used)


def differences(lines):
    # the comparer's lines minus its notes and closing count
    return [l for l in lines if not l.startswith("allowed: ") and not l.startswith("allow-list entry")
            and " difference(s) between " not in l]


class ChangedStatus(unittest.TestCase):
    def check_changed_status(self, recording, where):
        self.assertTrue(recording["exchanges"], f"{where} has no exchanges")
        c = Comparer(self)
        code, lines, err = c.run(recording, recording)
        self.assertEqual(code, 0, f"{where} against itself: {lines} {err}")
        changed = copy.deepcopy(recording)
        target = changed["exchanges"][0]
        old, new = target["status"], unused_status(recording, target)
        target["status"] = new
        code, lines, err = c.run(recording, changed)
        self.assertEqual(code, 1, f"{where}: {lines} {err}")
        self.assertEqual(differences(lines),
                         [f"status: {target['label']!r} {target['method']} {target['path']}: recorded {old}, actual {new}"],
                         where)

    def test_small_recording(self):
        self.check_changed_status(SMALL, "the small recording")

    def test_every_real_recording(self):
        found = 0
        for name in sorted(os.listdir(RECORDINGS_DIR)) if os.path.isdir(RECORDINGS_DIR) else []:
            path = os.path.join(RECORDINGS_DIR, name, "recording.json")
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    self.check_changed_status(json.load(f), path)
                found += 1
        print(f"{found} recording(s) under {RECORDINGS_DIR} checked", file=sys.stderr)


class OtherDifferences(unittest.TestCase):
    def test_body_shape(self):
        actual = copy.deepcopy(SMALL)
        actual["exchanges"][1]["response"]["body"]["users"][0]["id"] = "string"
        code, lines, _ = Comparer(self).run(SMALL, actual)
        self.assertEqual(code, 1)
        self.assertEqual(differences(lines), [
            "response of 'example list_users' GET /api/users -> 200: body.users[].id: recorded \"number\", actual \"string\""])

    def test_missing_key_and_cookie(self):
        actual = copy.deepcopy(SMALL)
        del actual["exchanges"][0]["response"]["body"]["obj"]
        actual["exchanges"][0]["response"]["cookies"] = ["session"]
        code, lines, _ = Comparer(self).run(SMALL, actual)
        self.assertEqual(code, 1)
        self.assertEqual(differences(lines), [
            "response of 'example login' POST /login -> 200: cookies: recorded [], actual [\"session\"]",
            "response of 'example login' POST /login -> 200: body.obj: only recorded (\"null\")"])

    def test_exchange_on_one_side(self):
        actual = copy.deepcopy(SMALL)
        actual["exchanges"].append(exchange("example delete_user", "DELETE", "/api/user/{name}", 200, {}))
        del actual["exchanges"][2]
        code, lines, _ = Comparer(self).run(SMALL, actual)
        self.assertEqual(code, 1)
        self.assertEqual(differences(lines), [
            "missing in the actual run: 'example create_user' POST /api/user -> 409 (checks: panel.start-ready)",
            "not in the recording: 'example delete_user' DELETE /api/user/{name} -> 200 (checks: panel.start-ready)"])

    def test_allow_list_excuses_one_side_only(self):
        actual = copy.deepcopy(SMALL)
        actual["exchanges"].append(exchange("example list_users", "GET", "/api/users", 429, {"detail": "string"}))
        allow = [{"label": "example list_users", "method": "GET", "path": "/api/users", "status": 429,
                  "reason": "the double injects a 429"}]
        code, lines, _ = Comparer(self).run(SMALL, actual, allow)
        self.assertEqual(code, 0, lines)
        self.assertIn("allowed: 'example list_users' GET /api/users -> 429 (the double injects a 429)", lines)

    def test_allow_entry_needs_a_reason(self):
        allow = [{"label": "x", "method": "GET", "path": "/", "status": 200}]
        code, _, err = Comparer(self).run(SMALL, SMALL, allow)
        self.assertEqual(code, 2)
        self.assertIn("needs a \"reason\"", err)

    def test_unusable_file(self):
        code, _, err = Comparer(self).run(SMALL, {"exchanges": [{"label": "x"}]})
        self.assertEqual(code, 2)
        self.assertIn("$.exchanges[0]: needs label, method, path, status and response", err)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    RECORDINGS_DIR = sys.argv.pop(1)
    unittest.main(verbosity=2)
