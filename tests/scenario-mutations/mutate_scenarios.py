#!/usr/bin/env python3
"""Mutated scenario files against `stand run --check` (issue 18's figure).

Takes the scenarios of scenarios/, makes COUNT mutated files from them
(seeded, so a run can be repeated) and checks each with `stand run --check`.
Every mutation says what the README (scenarios/README.md) makes of it:
"invalid" (must be refused), "valid" (must pass) or "either" (depends on
the field: a key removed that may be optional, a number changed within its
type). The figure it prints, and what fails it:

  exit 4 (internal error)             must be 0
  accepted though invalid             must be 0
  refused though valid                must be 0
  refusals not naming file and place  must be 0 (a JSON path "$..." or LINE:COL)
  checks over 1 s                     must be 0

  mutate_scenarios.py --stand build/bin/stand --plugin-path build/plugins \
      --scenarios scenarios [--count 2215] [--seed 1] [--json OUT.json] [--only TEXT]
"""
import argparse
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

# --- reading the scenarios (JSON with comments and trailing commas) --------


def strip_jsonc(text):
    """The strict JSON of a scenario file: comments and trailing commas out."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 2
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def path_text(path):
    out = "$"
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


# --- where a node is, and what the README says of it -------------------------

# Objects whose keys are the user's or a plugin's, not the scenario format's.
FREE_ZONES = {"params", "config", "knobs", "probe_params"}
# Keys that take more than one JSON type.
POLYMORPHIC = {"repetitions", "order", "upstream_keepalive", "tls"}
# Names the README restricts to [A-Za-z0-9_-] (labels: also '.').
NAME_KEYS = {("phase", "name"), ("step", "name"), ("plugin", "label")}
REQUIRED = {
    "top": {"schema_version", "name", "plugins", "phases"},
    "phase": {"name", "steps"},
    "step": {"step"},
    "plugin": {"id"},
}
REQUIRED_BY_KIND = {"sleep": {"duration_s"}, "idle": {"duration_s"}, "run_probe": {"job"},
                    "create_users": {"count"}}
NONEMPTY_ARRAYS = {"plugins", "phases", "steps"}
# Requests/s of an open-model load or a capacity search's levels.
RATE_KEYS = {"rate", "from_rate", "to_rate"}


class Node:
    def __init__(self, path, value, kind, zone, key):
        self.path, self.value, self.kind, self.zone, self.key = path, value, kind, zone, key


def walk(doc):
    """Every node with its path, the kind of object holding it and its zone."""
    nodes = []

    def visit(value, path, kind, zone, key):
        nodes.append(Node(path, value, kind, zone, key))
        if isinstance(value, dict):
            child_kind = object_kind(path, value, kind)
            for k, v in value.items():
                z = zone
                if zone is None and k in ("params", "config", "knobs"):
                    z = "probe_params" if (k == "params" and child_kind == "step") else k
                visit(v, path + [k], child_kind, z, k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                visit(v, path + [i], kind, zone, key)

    visit(doc, [], None, None, None)
    return nodes


def object_kind(path, value, parent_kind):
    if not path:
        return "top"
    if "step" in value:
        return "step"
    parent = [p for p in path if not isinstance(p, int)]
    if parent and parent[-1] == "plugins":
        return "plugin"
    if parent and parent[-1] == "phases":
        return "phase"
    return "other"


# --- mutations --------------------------------------------------------------

RAW = "\u0001RAW:"  # a JSON string standing for raw text in the written file


def raw(text):
    return RAW + text + "\u0001"


def dump(doc):
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    return re.sub(r'"\\u0001RAW:(.*?)\\u0001"', lambda m: m.group(1), text)


def set_at(doc, path, value):
    target = doc
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value


def type_of(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if v is None:
        return "null"
    return {str: "string", list: "array", dict: "object"}[type(v)]


def value_mutations(node):
    """(new value, what, expectation) for one node."""
    free = node.zone is not None
    own = type_of(node.value)
    out = []
    strict = "either" if free or node.key in POLYMORPHIC else "invalid"
    if node.path and not isinstance(node.path[-1], int) or node.kind in ("top", "step", "phase"):
        for other, v in (("number", 7), ("string", "zz"), ("bool", True), ("null", None), ("array", []),
                         ("object", {})):
            if other != own and not (own == "string" and node.value.startswith("${")):
                out.append((v, f"{own} -> {other}", strict))
    if own == "number":
        out += [(raw("1e309"), "1e309", "invalid"), (raw("-1e309"), "-1e309", "invalid"),
                (raw("1e-320"), "subnormal 1e-320", "invalid"),
                (raw("-9223372036854775809"), "integer beyond 64 bits", "invalid"),
                (raw("9" * 400), "400 nines (beyond a double)", "invalid"),
                (raw("0." + "0" * 400 + "1"), "1e-401 (below a double)", "invalid"),
                (-1, "negative", "either" if free else "invalid"), (0, "zero", "either"),
                (1.5, "fraction", "either"), (10 ** 15, "1e15", "either")]
    if own == "string":
        out += [(node.value + "\u0000x", "NUL in a string", "invalid"), ("", "empty string", "either"),
                ("x" * 5000, "5000 characters", "either"), ("a" * 100000, "100000 characters", "either"),
                ("/var/tmp/" + "a" * 40000, "a 40000-character path", "either"),
                ("${undeclared_param}", "undeclared ${param}",
                                                             "either" if free or node.zone == "config" else
                                                             "invalid")]
        if (node.kind, node.key) in NAME_KEYS:
            for bad, what in ((" ", "space"), ("a b", "inner space"), ("a/b", "slash"),
                              ("../../../x/ESCAPED", "path escape"), ("a%2f", "percent"), ("é", "non-ASCII"),
                              ("x" * 300, "300 characters"), (".hidden", "leading dot")):
                out.append((bad, f"name: {what}", "invalid"))
    if own == "number" and node.key in RATE_KEYS and not free:
        # A rate whose first request after the one at the start falls beyond any duration.
        out += [(1e-300, "rate 1e-300", "invalid"), (1e-10, "rate 1e-10", "invalid")]
    if own == "string":
        if node.key == "step" and node.kind == "step":
            out.append(("no_such_kind", "unknown step kind", "invalid"))
        if node.key == "pin":
            out += [("99", "pin: CPU 99", "invalid"), ("0-4095", "pin: 0-4095", "invalid"),
                    ("1-0", "pin: reversed", "invalid")]
    return out


def structure_mutations(node, doc):
    out = []
    if isinstance(node.value, dict):
        kind = object_kind(node.path, node.value, node.kind)
        added = dict(node.value)
        added["bogus_key"] = 1
        out.append((added, "unknown key added", "either" if node.zone or node.key in FREE_ZONES else "invalid"))
        for k in node.value:
            removed = {kk: vv for kk, vv in node.value.items() if kk != k}
            required = REQUIRED.get(kind, set()) | REQUIRED_BY_KIND.get(node.value.get("step"), set())
            out.append((removed, f"key '{k}' removed",
                        "invalid" if k in required and not node.zone else "either"))
    if isinstance(node.value, list) and node.value:
        name = node.key if node.path and not isinstance(node.path[-1], int) else None
        out.append(([], "emptied", "invalid" if name in NONEMPTY_ARRAYS and not node.zone else "either"))
        first = node.value[0]
        named = isinstance(first, dict) and "name" in first
        dup_invalid = name == "phases" or name == "plugins" or (name == "steps" and named)
        out.append((node.value + [copy.deepcopy(first)], "first element twice",
                    "invalid" if dup_invalid and not node.zone else "either"))
    return out


def text_mutations(text, rng):
    """Whole-file mutations on the original text (comments included)."""
    out = [("\ufeff" + text, "UTF-8 byte order mark", "valid"), (text + "\nx", "trailing garbage", "invalid"),
           (text.replace("{", '{"name": "dup", ', 1), "duplicate key", "invalid")]
    last = text.rstrip().rfind("}")
    cut = rng.randrange(1, last)
    out.append((text[:cut], f"truncated at byte {cut}", "invalid"))
    at = text.find('"description": "')
    if at >= 0:
        at += len('"description": "')
        out += [(text[:at] + "\x00" + text[at:], "raw NUL byte in a string", "invalid"),
                (text[:at] + "\x01" + text[at:], "raw control character in a string", "invalid"),
                (text[:at] + "\udcff" + text[at:], "invalid UTF-8 in a string", "invalid")]
    out += [(text.replace("{", '{"description": ' + "[" * 20000 + "]" * 20000 + ", ", 1), "nesting 20000 deep",
             "invalid"),
            (text.replace("{", '{"description": "' + "x" * (5 << 20) + '", ', 1), "over 4 MiB", "invalid")]
    return out


def all_mutations(files, rng):
    """Every (scenario, content, what, expectation, path) there is, originals first."""
    muts = []
    for f in files:
        text = open(f, encoding="utf-8").read()
        doc = json.loads(strip_jsonc(text))
        muts.append((f, text, "unchanged", "valid", None))
        for content, what, expect in text_mutations(text, rng):
            muts.append((f, content, what, expect, None))
        for node in walk(doc):
            for value, what, expect in value_mutations(node) + structure_mutations(node, doc):
                if not node.path:
                    continue
                mutated = copy.deepcopy(doc)
                set_at(mutated, node.path, value)
                muts.append((f, mutated, what, expect, node.path))
            if not node.path and isinstance(node.value, dict):  # the top object's own structure
                for value, what, expect in structure_mutations(node, doc):
                    muts.append((f, value, what, expect, []))
    return muts


# --- checking ----------------------------------------------------------------

PLACE = re.compile(r"\$[.\[:]|\$$|:\d+:\d+:|--plugin|--param")


def check_one(args, path):
    started = time.monotonic()
    try:
        proc = subprocess.run([args.stand, "run", "--check", path, "--plugin-path", args.plugin_path],
                              capture_output=True, timeout=30)
        rc, err = proc.returncode, proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    return rc, err, time.monotonic() - started


def write_mutation(dir_, index, scenario, content):
    name = os.path.join(dir_, f"m{index:05d}-{os.path.basename(scenario)}")
    data = content if isinstance(content, str) else dump(content)
    with open(name, "wb") as out:
        out.write(data.encode("utf-8", "surrogateescape"))
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stand", required=True)
    ap.add_argument("--plugin-path", required=True)
    ap.add_argument("--scenarios", required=True, help="a directory of scenario files")
    ap.add_argument("--count", type=int, default=2215, help="mutated files to check (default 2215)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write every finding here")
    ap.add_argument("--list-accepted", action="store_true", help="print every mutation --check accepted")
    ap.add_argument("--only", help="only the mutations whose description holds this text (e.g. 'rate 1e-300')")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    files = sorted(os.path.join(args.scenarios, f) for f in os.listdir(args.scenarios) if f.endswith(".json"))
    muts = all_mutations(files, rng)
    if args.only:
        muts = [m for m in muts if m[2] == "unchanged" or args.only in m[2]]
    originals = [m for m in muts if m[2] == "unchanged"]
    rest = [m for m in muts if m[2] != "unchanged"]
    picked = originals + rng.sample(rest, min(len(rest), max(0, args.count - len(originals))))
    counts = {k: 0 for k in ("refused", "accepted", "exit4", "other", "slow", "unnamed", "accepted_invalid",
                             "refused_valid")}
    findings = []
    slowest = 0.0
    with tempfile.TemporaryDirectory(prefix="stand-mutations-") as dir_:
        for i, (scenario, content, what, expect, path) in enumerate(picked):
            file = write_mutation(dir_, i, scenario, content)
            rc, err, took = check_one(args, file)
            slowest = max(slowest, took)
            where = path_text(path) if path is not None else "(file)"
            problems = []
            if rc == 0:
                counts["accepted"] += 1
                if expect == "invalid":
                    counts["accepted_invalid"] += 1
                    problems.append("accepted though invalid")
            elif rc == 2:
                counts["refused"] += 1
                whole_file = what == "over 4 MiB"  # the file itself is the place
                if os.path.basename(file) not in err or not (whole_file or PLACE.search(err)):
                    counts["unnamed"] += 1
                    problems.append("refusal names no file and place")
                if expect == "valid":
                    counts["refused_valid"] += 1
                    problems.append("refused though valid")
            elif rc == 4:
                counts["exit4"] += 1
                problems.append("exit 4")
            else:
                counts["other"] += 1
                problems.append(f"exit {rc}")
            if took > 1.0:
                counts["slow"] += 1
                problems.append(f"took {took:.2f} s")
            if rc == 0 and args.list_accepted:
                print(f"accepted ({expect}): {os.path.basename(scenario)} {where} {what}")
            if problems:
                findings.append({"scenario": os.path.basename(scenario), "mutation": what, "at": where,
                                 "expect": expect, "exit": rc, "problems": problems,
                                 "stderr": err.strip()[-400:]})
                print(f"FINDING {os.path.basename(scenario)} {where} {what}: {', '.join(problems)}: "
                      f"{err.strip()[-300:]}", file=sys.stderr)
            if (i + 1) % 250 == 0:
                print(f"... {i + 1}/{len(picked)} checked", file=sys.stderr)
    c = counts
    print(f"{len(picked)} scenario files ({len(originals)} unchanged, {len(picked) - len(originals)} mutated of "
          f"{len(rest)} possible, seed {args.seed}): {c['refused']} refused, {c['accepted']} accepted; "
          f"exit 4: {c['exit4']}, other exits: {c['other']}, accepted though invalid: {c['accepted_invalid']}, "
          f"refused though valid: {c['refused_valid']}, refusals not naming file and place: {c['unnamed']}, "
          f"over 1 s: {c['slow']} (slowest {slowest:.2f} s)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"counts": counts, "checked": len(picked), "seed": args.seed, "findings": findings}, out,
                      indent=1)
    bad = c["exit4"] + c["other"] + c["accepted_invalid"] + c["refused_valid"] + c["unnamed"] + c["slow"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
