#!/usr/bin/env python3
"""One rule for the plugins' C++ namespaces.

  check_plugin_namespaces.py SOURCE_DIR

Code in plugins/DIR/ lives in namespace stand_<DIR> ('-' becomes '_':
plugins/3x-ui is stand_3x_ui), and code of the kit sdk/kits/KIT/ in
stand_<KIT>_kit (sdk/kits/panel is stand_panel_kit), besides anonymous
namespaces and aliases (namespace json = boost::json). Prints each
namespace that breaks the rule as FILE:LINE and exits 1.
"""
import os
import re
import sys

from source_files import numbered_lines, report, sources

NAMESPACE = re.compile(r"^\s*namespace\s+([A-Za-z_][A-Za-z0-9_:]*)\s*\{")


def owners(repo):
    """(folder, its name in messages, the namespace its code lives in)."""
    for parent, suffix in (("plugins", ""), (os.path.join("sdk", "kits"), "_kit")):
        root = os.path.join(repo, parent)
        for name in sorted(os.listdir(root)):
            folder = os.path.join(root, name)
            if os.path.isdir(folder):
                yield folder, f"{parent}/{name}", "stand_" + name.replace("-", "_") + suffix


def main():
    problems, checked = [], 0
    for folder, owner, expected in owners(sys.argv[1]):
        for path in sources(folder):
            for n, line in numbered_lines(path):
                m = NAMESPACE.match(line)
                if not m:
                    continue
                checked += 1
                top = m.group(1).split("::")[0]
                if top not in (expected, "std", "boost"):  # std/boost: specializations
                    problems.append(f"{path}:{n}: namespace {m.group(1)}: code of {owner} "
                                    f"lives in namespace {expected}")
    return report("plugin namespaces", problems,
                  f"plugin namespaces ok: {checked} namespace blocks, each stand_<plugin dir> or stand_<kit>_kit")


if __name__ == "__main__":
    sys.exit(main())
