#!/usr/bin/env python3
"""Fails when a function body in framework/ is longer than the limit.

Usage: check_function_length.py REPO [--max 80] [--list]

A function is a brace block at namespace or class scope whose header ends in
a parameter list (with qualifiers, a trailing return type or a constructor's
initializers after it). Its length is the lines from the header's line to the
closing brace. Comments and string literals are blanked first, so braces in
them do not count. An exception is a line in framework/long_functions.txt:
"<path>:<function name>  # why".
"""
import argparse
import pathlib
import re
import sys

LITERALS = re.compile(r'R"([^(]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*(?:.|\n)*?\*/')


def blank(text):
    return LITERALS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def kind_of(header):
    h = header.strip()
    if re.match(r"^(inline\s+)?namespace\b", h) or h.startswith('extern "C"') or h == "extern":
        return "namespace"
    if re.search(r"\b(class|struct|union|enum)\b[^()]*$", h) and "(" not in h.split("=")[0]:
        return "class"
    # a parameter list, maybe followed by qualifiers, -> type, or : initializers
    if re.search(r"\)\s*(const|noexcept|override|final|mutable|&|&&|\s)*(->[^{;]*)?$", h) or re.search(
            r"\)\s*:\s*[\w:]+\s*[({]", h):
        name = re.search(r"([~\w:]+|operator\s*[^\s(]+)\s*\(", h)
        if name and not re.match(r"^(if|for|while|switch|catch)$", name.group(1)):
            return "function:" + name.group(1)
    return "other"


def functions(text):
    """Yields (name, first line, last line) of each function body."""
    src = blank(text)
    stack = []  # (kind, start line)
    header_start = 0
    line = 1
    for i, c in enumerate(src):
        if c == "\n":
            line += 1
        in_function = any(k.startswith("function:") for k, _ in stack)
        if c in ";{}" and not in_function and c != "{" or (c == "}" and not in_function):
            if c == "}" and stack:
                stack.pop()
            header_start = i + 1
            continue
        if c == "{":
            if in_function:
                stack.append(("block", line))
                continue
            header = src[header_start:i]
            kind = kind_of(re.sub(r"\s+", " ", header))
            start = line - header.rstrip().count("\n") if kind.startswith("function:") else line
            # the header's first non-blank line
            lead = len(header) - len(header.lstrip())
            start = line - header[lead:].count("\n")
            stack.append((kind, start))
            header_start = i + 1
        elif c == "}" and stack:
            kind, start = stack.pop()
            if kind.startswith("function:") and not any(k.startswith("function:") for k, _ in stack):
                yield kind[len("function:"):], start, line
                header_start = i + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--list", action="store_true", help="print every function over the limit, with its length")
    args = ap.parse_args()
    repo = pathlib.Path(args.repo)
    allowed = {}
    exceptions = repo / "framework" / "long_functions.txt"
    if exceptions.exists():
        for raw in exceptions.read_text().splitlines():
            entry = raw.split("#", 1)[0].strip()
            if entry:
                allowed[entry] = raw
    over = []
    for path in sorted((repo / "framework").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h", ".cc"):
            continue
        rel = path.relative_to(repo).as_posix()
        for name, first, last in functions(path.read_text(errors="replace")):
            length = last - first + 1
            if length > args.max and f"{rel}:{name}" not in allowed:
                over.append((length, rel, name, first))
    for length, rel, name, first in sorted(over, reverse=True):
        print(f"{rel}:{first}: {name} is {length} lines (limit {args.max}); split it, or say why in "
              f"framework/long_functions.txt")
    if over:
        return 1
    print(f"function length ok: no function in framework/ over {args.max} lines "
          f"({len(allowed)} explained in framework/long_functions.txt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
