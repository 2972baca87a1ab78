"""What the source checks of this folder share: the C and C++ files under a
folder, and their lines; and how a check reports."""
import os

SUFFIXES = (".cpp", ".hpp", ".h", ".c")


def sources(root):
    """Every C/C++ file below root, in a stable order."""
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                yield os.path.join(dirpath, name)


def numbered_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        yield from enumerate(f, 1)


def report(what, problems, ok_line):
    """Prints the problems (exit 1) or the ok line (exit 0)."""
    if problems:
        print("\n".join(problems))
        print(f"{what}: {len(problems)} problem(s)")
        return 1
    print(ok_line)
    return 0
