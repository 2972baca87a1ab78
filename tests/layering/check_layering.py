#!/usr/bin/env python3
"""The host's layering, checked from its includes.

  check_layering.py SOURCE_DIR [--layers FILE]

Every `#include "FOLDER/..."` of a host header (one under framework/src)
in framework/src/FOLDER2/ must name FOLDER2
itself or a folder framework/layers.txt lets FOLDER2 include; every folder of
framework/src must be in the table; the table must have no cycle. Plugins
and examples include no host folder at all (they see only the SDK). Prints
each violation as FILE:LINE and exits 1; exits 0 with a summary otherwise.
"""
import argparse
import os
import re
import sys

from source_files import numbered_lines, report, sources

INCLUDE = re.compile(r'^\s*#\s*include\s*"(([A-Za-z0-9_-]+)/[^"]+)"')


def read_layers(path):
    layers, problems = {}, []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                problems.append(f"{path}:{n}: expected 'folder: allowed folders...'")
                continue
            name, allowed = line.split(":", 1)
            name = name.strip()
            if name in layers:
                problems.append(f"{path}:{n}: {name} is listed twice")
            layers[name] = set(allowed.split())
    for name, allowed in layers.items():
        for a in sorted(allowed - set(layers)):
            problems.append(f"{path}: {name} may include {a}, which is not a folder in the table")
    return layers, problems


def find_cycle(layers):
    state = {}

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(layers.get(node, ())):
            if state.get(nxt) == "open":
                return stack + [node, nxt]
            if nxt not in state:
                found = visit(nxt, stack + [node])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(layers):
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle[cycle.index(cycle[-1]):]
    return None


def includes(path, src):
    """(line, host folder, text) of each include of a host header: one that
    exists under framework/src (common/ has folders of the same names)."""
    for n, line in numbered_lines(path):
        m = INCLUDE.match(line)
        if m and os.path.isfile(os.path.join(src, m.group(1))):
            yield n, m.group(2), line.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source_dir")
    ap.add_argument("--layers", help="the table (default: SOURCE_DIR/framework/layers.txt)")
    args = ap.parse_args()
    src = os.path.join(args.source_dir, "framework", "src")
    layers_file = args.layers or os.path.join(args.source_dir, "framework", "layers.txt")
    layers, problems = read_layers(layers_file)
    cycle = find_cycle(layers)
    if cycle:
        problems.append(f"{layers_file}: a cycle: {' -> '.join(cycle)}")
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for d in folders:
        if d not in layers:
            problems.append(f"{src}/{d}: a host folder missing from {layers_file}")
    checked = 0
    for d in folders:
        allowed = layers.get(d, set()) | {d}
        for path in sources(os.path.join(src, d)):
            for n, target, text in includes(path, src):
                checked += 1
                if target in folders and target not in allowed:
                    problems.append(f"{path}:{n}: {d}/ may not include {target}/ ({text}); "
                                    f"{d} may include: {' '.join(sorted(allowed - {d})) or 'no host folder'}")
    for outside in ("plugins", "examples"):
        for path in sources(os.path.join(args.source_dir, outside)):
            for n, target, text in includes(path, src):
                checked += 1
                if target in folders:
                    problems.append(f"{path}:{n}: {outside}/ sees only the SDK, not the host's {target}/ ({text})")
    return report("layering", problems, f"layering ok: {len(folders)} host folders, {checked} includes checked, "
                                        "plugins/ and examples/ see only the SDK")


if __name__ == "__main__":
    sys.exit(main())
