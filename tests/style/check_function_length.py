#!/usr/bin/env python3
"""Fails when a function body in the code that ships is longer than the limit.

Usage: check_function_length.py REPO [--max 80] [--list]

A function is a brace block at namespace or class scope whose header ends in
a parameter list (with qualifiers, a trailing return type or a constructor's
initializers after it), or in a lambda's head (a lambda at namespace scope is
named after its variable, one in a table "lambda"). Its length is the lines
from the header's first line to the closing brace; lambdas inside a function
count as part of it. Comments, string literals and preprocessor lines are
blanked first, so braces in them do not count; braces inside a header (a
default argument `= {}`, a member's `name_{...}` initializer) are part of it.
The code that ships is every C and C++ file under ROOTS (framework/, plugins/,
sdk/ with the kits, common/, examples/); the tests are not in it, nor a
part's tests in a tests/ folder beside it. An exception
is a line in tests/style/long_functions.txt, the path relative to the
repository root: "<path>:<function name>  # why".
"""
import argparse
import pathlib
import re
import sys

LITERALS = re.compile(r'R"([^(]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*(?:.|\n)*?\*/'
                      r'|^[ \t]*#(?:\\\n|[^\n])*', re.MULTILINE)
NOT_NAMES = {"if", "for", "while", "switch", "catch", "return", "decltype", "noexcept", "alignas", "sizeof",
             "requires", "static_assert", "__attribute__", "__declspec"}
QUALIFIERS = r"(const|noexcept|override|final|mutable|&|&&|try|\s)*"
# A lambda's head at its end: `= [..](..) mutable -> T`, also as an argument or in a table.
LAMBDA = re.compile(r"(^|[=(,{]|\breturn)\s*\[[^\[\]]*\]\s*(\((?:[^()]|\([^()]*\))*\))?\s*" r"(mutable|constexpr|noexcept|\s)*(->[^{;]*)?$")
ROOTS = ("framework", "plugins", "sdk", "common", "examples")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".c")
EXCEPTIONS = "tests/style/long_functions.txt"
STRUCTURE = re.compile(r"[\n(){};]")  # the only characters functions() looks at
CTOR_INITIALIZERS = re.compile(r"\)\s*(noexcept\s*)?:(?!:)\s*[\w:]+\s*[({]")


def blank(text):
    """Comments, string and character literals and preprocessor lines as spaces (line breaks kept)."""
    return LITERALS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


# Operators spelled with < or > are hidden while template arguments are taken out.
ANGLE_OPERATORS = ["<=>", "<<=", ">>=", "<<", ">>", "<=", ">=", "<", ">", "->*", "->"]


def without_template_arguments(h):
    h = re.sub(r"operator\s*(" + "|".join(re.escape(o) for o in ANGLE_OPERATORS) + ")",
               lambda m: "operator$" + str(ANGLE_OPERATORS.index(m.group(1))) + "$", h).replace("->", " ")
    while True:
        shorter = re.sub(r"<[^<>]*>", "", h)
        if shorter == h:
            return h
        h = shorter


def function_name(h):
    """The name before the parameter list: `ns::Class::name`, `operator()`; None when there is none."""
    for m in re.finditer(r"((?:[~\w]+::)*operator\s*(?:\(\s*\)|\[\s*\]|[^\s(]+)|[~\w:]+)\s*\(",
                         without_template_arguments(h)):
        name = re.sub(r"\$(\d+)\$", lambda o: ANGLE_OPERATORS[int(o.group(1))], re.sub(r"\s+", "", m.group(1)))
        if name.split("::")[-1] not in NOT_NAMES and not name[0].isdigit():
            return name
    return None


def kind_of(header):
    h = header.strip()
    if re.match(r"^(inline\s+)?namespace\b", h) or h == "extern":
        return "namespace"
    if re.search(r"\b(class|struct|union|enum)\b[^()]*$", h) and "(" not in h.split("=")[0]:
        return "class"
    lambda_head = LAMBDA.search(h)
    if lambda_head:
        variable = re.search(r"([\w]+)\s*=\s*$", h[:lambda_head.start() + len(lambda_head.group(1))])
        return "function:" + (variable.group(1) if variable else "lambda")
    # a parameter list, maybe followed by qualifiers, -> type, or : initializers
    if re.search(r"\)" + QUALIFIERS + r"(->[^{;]*)?" + QUALIFIERS + "$", h) or CTOR_INITIALIZERS.search(h):
        name = function_name(h)
        if name:
            return "function:" + name
    return "other"


def braced_value(header, parens):
    """Whether a `{` after this header is a value inside it: a default argument (inside
    the parentheses) or a member's braced initializer in a constructor's list."""
    h = header.rstrip()
    return parens > 0 or (CTOR_INITIALIZERS.search(h) is not None and re.search(r"[\w>]$", h) is not None)


def functions(text):
    """Yields (name, first line, last line) of each function body at namespace or class scope."""
    src = blank(text)
    stack = []  # (kind, start line); kind "value" for a brace inside a header
    header_start = 0
    parens = 0  # unclosed "(" in the header so far
    line = 1
    functions_open = 0  # entries of the stack that are functions

    for match in STRUCTURE.finditer(src):  # every other character is passed over
        i, c = match.start(), match.group()
        if c == "\n":
            line += 1
            continue
        if functions_open:
            if c == "{":
                stack.append(("block", line))
            elif c == "}":
                kind, start = stack.pop()
                if kind.startswith("function:"):
                    functions_open -= 1
                    if not functions_open:
                        yield kind[len("function:"):], start, line
                        header_start, parens = i + 1, 0
            continue
        if c == "(":
            parens += 1
        elif c == ")":
            parens = max(0, parens - 1)
        elif c == ";":
            header_start, parens = i + 1, 0
        elif c == "{":
            header = src[header_start:i]
            if braced_value(header, parens):
                stack.append(("value", line))
                continue
            kind = kind_of(re.sub(r"\s+", " ", header))
            lead = len(header) - len(header.lstrip())
            stack.append((kind, line - header[lead:].count("\n")))  # from the header's first line
            functions_open += kind.startswith("function:")
            header_start = i + 1
        elif c == "}":
            if stack and stack.pop()[0] == "value":
                continue
            header_start, parens = i + 1, 0


def is_test(rel):
    """A part's unit tests beside it (plugins/caddy/tests/, sdk/kits/panel/tests/, sdk/tests/) do not ship."""
    return "tests" in rel.parts[:-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--list", action="store_true", help="also print the long functions long_functions.txt explains")
    args = ap.parse_args()
    repo = pathlib.Path(args.repo)
    allowed = {}
    problems = []
    exceptions = repo / EXCEPTIONS
    if exceptions.exists():
        for number, raw in enumerate(exceptions.read_text().splitlines(), 1):
            entry, _, why = (part.strip() for part in raw.partition("#"))
            if not entry:
                continue
            if not why:
                problems.append(f"{EXCEPTIONS}:{number}: {entry} has no reason (add '  # why')")
            allowed[entry] = raw
    used = set()
    over = []
    sources = sorted(path for root in ROOTS for path in (repo / root).rglob("*")
                     if path.suffix in SOURCE_SUFFIXES and path.is_file() and not is_test(path.relative_to(repo)))
    for path in sources:
        rel = path.relative_to(repo).as_posix()
        for name, first, last in functions(path.read_text(errors="replace")):
            length = last - first + 1
            if length <= args.max:
                continue
            if f"{rel}:{name}" not in allowed:
                over.append((length, rel, name, first))
                continue
            used.add(f"{rel}:{name}")
            if args.list:
                print(f"{rel}:{first}: {name} is {length} lines, explained: {allowed[f'{rel}:{name}']}")
    for length, rel, name, first in sorted(over, reverse=True):
        print(f"{rel}:{first}: {name} is {length} lines (limit {args.max}); split it, or say why in "
              f"{EXCEPTIONS}")
    for entry in sorted(set(allowed) - used):
        problems.append(f"{EXCEPTIONS}: {entry} is not a function over {args.max} lines "
                        f"(any more): remove the line")
    for problem in problems:
        print(problem)
    if over or problems:
        return 1
    print(f"function length ok: no function in {', '.join(r + '/' for r in ROOTS)} over {args.max} lines "
          f"({len(sources)} files; {len(allowed)} explained in {EXCEPTIONS})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
