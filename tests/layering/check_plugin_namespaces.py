#!/usr/bin/env python3
"""One rule for the plugins' C++ namespaces.

  check_plugin_namespaces.py SOURCE_DIR

Code in plugins/DIR/ lives in namespace stand_<DIR> ('-' becomes '_':
plugins/panel-kit is stand_panel_kit, plugins/3x-ui is stand_3x_ui), besides
anonymous namespaces and aliases (namespace json = boost::json). Prints
each namespace that breaks the rule as FILE:LINE and exits 1.
"""
import os
import re
import sys

from source_files import numbered_lines, report, sources

NAMESPACE = re.compile(r"^\s*namespace\s+([A-Za-z_][A-Za-z0-9_:]*)\s*\{")


def main():
    root = os.path.join(sys.argv[1], "plugins")
    problems, checked = [], 0
    for plugin in sorted(os.listdir(root)):
        folder = os.path.join(root, plugin)
        if not os.path.isdir(folder):
            continue
        expected = "stand_" + plugin.replace("-", "_")
        for path in sources(folder):
            for n, line in numbered_lines(path):
                m = NAMESPACE.match(line)
                if not m:
                    continue
                checked += 1
                top = m.group(1).split("::")[0]
                if top not in (expected, "std", "boost"):  # std/boost: specializations
                    problems.append(f"{path}:{n}: namespace {m.group(1)}: code of plugins/{plugin} "
                                    f"lives in namespace {expected}")
    return report("plugin namespaces", problems,
                  f"plugin namespaces ok: {checked} namespace blocks, each stand_<plugin dir>")


if __name__ == "__main__":
    sys.exit(main())
