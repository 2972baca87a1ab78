#!/usr/bin/env python3
"""Compares two recordings of panel exchanges (tests/data/real-panels/*/recording.json).

usage: compare_recording.py RECORDED ACTUAL [--allow FILE]

RECORDED is the real panel's recording, ACTUAL what a double answered in the
same compat flow. Prints each difference and exits 1 on any, 0 when the two
agree, 2 when a file cannot be used. A difference is an exchange (label,
method, path, status) in one file only, or a different "response" for the
same exchange. When one call (label, method, path) has a status in each file
that the other lacks, the pair is reported as one status difference.

--allow FILE (allowed-differences.json beside the recording) excuses an
exchange that only one side can produce:
  [{"label": "...", "method": "GET", "path": "/...", "status": 503,
    "reason": "why only one side has it"}]
"""

import argparse
import json
import sys

KEY_FIELDS = ("label", "method", "path", "status")
RESPONSE_FIELDS = ("content_type", "cookies", "headers", "body")


class Unusable(Exception):
    pass


def load(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise Unusable(f"{what} {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        raise Unusable(f"{what} {path}: not JSON: {e}")


def key_text(key):
    label, method, path, status = key
    return f"{label!r} {method} {path} -> {status}"


def exchanges_by_key(doc, path):
    if not isinstance(doc, dict) or not isinstance(doc.get("exchanges"), list):
        raise Unusable(f"{path}: expected an object with an \"exchanges\" array")
    out = {}
    for i, e in enumerate(doc["exchanges"]):
        where = f"{path}: $.exchanges[{i}]"
        if not isinstance(e, dict) or any(k not in e for k in KEY_FIELDS) or not isinstance(e.get("response"), dict):
            raise Unusable(f"{where}: needs label, method, path, status and response")
        key = tuple(e[k] for k in KEY_FIELDS)
        if key in out:
            raise Unusable(f"{where}: {key_text(key)} appears twice")
        out[key] = e
    return out


def load_allowed(path):
    doc = load(path, "allow-list")
    if not isinstance(doc, list):
        raise Unusable(f"{path}: expected an array of {{label, method, path, status, reason}}")
    allowed = {}
    for i, entry in enumerate(doc):
        where = f"{path}: $[{i}]"
        if not isinstance(entry, dict) or any(k not in entry for k in KEY_FIELDS):
            raise Unusable(f"{where}: needs label, method, path and status")
        if not isinstance(entry.get("reason"), str) or not entry["reason"].strip():
            raise Unusable(f"{where}: needs a \"reason\"")
        allowed[tuple(entry[k] for k in KEY_FIELDS)] = entry["reason"]
    return allowed


def shape_differences(recorded, actual, where):
    """Lines naming where two body shapes differ."""
    if isinstance(recorded, dict) and isinstance(actual, dict):
        lines = []
        for k in sorted(set(recorded) | set(actual)):
            sub = f"{where}.{k}"
            if k not in actual:
                lines.append(f"{sub}: only recorded ({json.dumps(recorded[k])})")
            elif k not in recorded:
                lines.append(f"{sub}: only actual ({json.dumps(actual[k])})")
            else:
                lines += shape_differences(recorded[k], actual[k], sub)
        return lines
    if isinstance(recorded, list) and isinstance(actual, list) and recorded and actual:
        return shape_differences(recorded[0], actual[0], where + "[]")
    if recorded != actual:
        return [f"{where}: recorded {json.dumps(recorded)}, actual {json.dumps(actual)}"]
    return []


def response_differences(recorded, actual):
    lines = []
    for field in RESPONSE_FIELDS:
        r, a = recorded.get(field), actual.get(field)
        if field == "body":
            lines += shape_differences(r, a, "body")
        elif r != a:
            lines.append(f"{field}: recorded {json.dumps(r)}, actual {json.dumps(a)}")
    return lines


def compare(recorded_doc, actual_doc, allowed, recorded_path="RECORDED", actual_path="ACTUAL"):
    """Returns (differences, notes): lines to print."""
    recorded = exchanges_by_key(recorded_doc, recorded_path)
    actual = exchanges_by_key(actual_doc, actual_path)
    differences, notes = [], []
    used = set()

    if recorded_doc.get("panel") != actual_doc.get("panel"):
        differences.append(f"panel: recorded {recorded_doc.get('panel')!r}, actual {actual_doc.get('panel')!r}")

    only_recorded = [k for k in recorded if k not in actual]
    only_actual = [k for k in actual if k not in recorded]
    for side in (only_recorded, only_actual):
        for k in list(side):
            if k in allowed:
                side.remove(k)
                used.add(k)
                notes.append(f"allowed: {key_text(k)} ({allowed[k]})")

    # One call answered with another status on each side: one difference.
    def call(k):
        return k[:3]
    for k in sorted(only_recorded, key=str):
        pairs = [a for a in only_actual if call(a) == call(k)]
        if len([r for r in only_recorded if call(r) == call(k)]) == 1 and len(pairs) == 1:
            label, method, path, _ = k
            differences.append(f"status: {label!r} {method} {path}: recorded {k[3]}, actual {pairs[0][3]}")
            only_actual.remove(pairs[0])
            only_recorded.remove(k)
    for k in sorted(only_recorded, key=str):
        differences.append(f"missing in the actual run: {key_text(k)} (checks: {', '.join(recorded[k].get('checks', []))})")
    for k in sorted(only_actual, key=str):
        differences.append(f"not in the recording: {key_text(k)} (checks: {', '.join(actual[k].get('checks', []))})")

    for k in sorted((k for k in recorded if k in actual), key=str):
        for line in response_differences(recorded[k]["response"], actual[k]["response"]):
            differences.append(f"response of {key_text(k)}: {line}")

    for k in sorted(set(allowed) - used, key=str):
        notes.append(f"allow-list entry matched nothing: {key_text(k)}")
    return differences, notes


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recorded")
    parser.add_argument("actual")
    parser.add_argument("--allow", help="allowed-differences.json")
    args = parser.parse_args(argv)
    try:
        recorded_doc = load(args.recorded, "recording")
        actual_doc = load(args.actual, "recording")
        allowed = load_allowed(args.allow) if args.allow else {}
        differences, notes = compare(recorded_doc, actual_doc, allowed, args.recorded, args.actual)
    except Unusable as e:
        print(f"compare_recording: {e}", file=sys.stderr)
        return 2
    for line in notes:
        print(line)
    for line in differences:
        print(line)
    if differences:
        print(f"{len(differences)} difference(s) between {args.recorded} and {args.actual}")
        return 1
    print(f"{args.actual} matches {args.recorded}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
