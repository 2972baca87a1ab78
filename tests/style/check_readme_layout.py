#!/usr/bin/env python3
"""Fails when the README's layout table misses a folder, or names one that is gone.

Usage: check_readme_layout.py REPO

The table is the one under "## Layout" in REPO/README.md; a row names its path
in backquotes in the first cell (`framework/src/box/`). Every folder that
exists at the top level and in each of PARENTS must have a row, its own or one
of a folder inside it (`sdk/include/stand/` stands for `sdk/include/`). Build
outputs and hidden folders but .ci/ are not folders of the repository. A row
naming a path that does not exist is stale.
"""
import pathlib
import re
import sys

PARENTS = ("framework/src", "sdk", "sdk/kits", "plugins", "tests", "docs", "examples", "common")
NOT_OURS = re.compile(r"^(build|build-.*|runs|__pycache__|\..*)$")
HIDDEN_BUT_OURS = {".ci"}


def layout_rows(readme):
    """The paths in the first cell of the layout table's rows, with their line numbers."""
    lines = readme.read_text().splitlines()
    try:
        start = lines.index("## Layout")
    except ValueError:
        sys.exit(f"{readme}: no '## Layout' section")
    rows = []
    for number, line in enumerate(lines[start + 1:], start + 2):
        if line.startswith("## "):
            break
        cell = re.match(r"^\|\s*`([^`]+)`\s*\|", line)
        if cell:
            rows.append((cell.group(1).rstrip("/"), number))
    return rows


def folders(repo):
    """Every folder the table must cover: the top level's and each parent's own."""
    found = []
    for parent in ("",) + PARENTS:
        base = repo / parent
        if not base.is_dir():
            continue
        for child in sorted(base.iterdir()):
            if not child.is_dir():
                continue
            if NOT_OURS.match(child.name) and not (parent == "" and child.name in HIDDEN_BUT_OURS):
                continue
            found.append(child.relative_to(repo).as_posix())
    return found


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    rows = layout_rows(repo / "README.md")
    named = {path for path, _ in rows}
    problems = []
    for folder in folders(repo):
        if not any(path == folder or path.startswith(folder + "/") for path in named):
            problems.append(f"README.md: the layout table has no row for {folder}/ (add '| `{folder}/` | what |')")
    for path, number in rows:
        if not (repo / path).exists():
            problems.append(f"README.md:{number}: the layout table names {path}, which does not exist: remove the row")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"README layout ok: {len(folders(repo))} folders, {len(rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
