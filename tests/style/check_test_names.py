#!/usr/bin/env python3
"""No doctest TEST_CASE name holds a ';'.

doctest_discover_tests reads the binary's list of cases into a CMake list,
which splits at ';': a case named "a; b" becomes the ctest entries "a" and
" b", each of which runs no case and passes. So the case is never run by
ctest, silently. Commas are fine (the discovery escapes them).

usage: check_test_names.py ROOT       every .cpp under ROOT's tests/, plugins/, sdk/
       check_test_names.py --self-test
"""
import os
import re
import sys
import tempfile

CASE = re.compile(r'\bTEST_CASE\s*\(\s*"((?:[^"\\]|\\.)*)"')


def problems(root):
    out = []
    for top in ("tests", "plugins", "sdk"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith(".cpp"):
                    continue
                path = os.path.join(folder, name)
                with open(path, errors="replace") as f:
                    text = f.read()
                for m in CASE.finditer(text):
                    if ";" in m.group(1):
                        line = text.count("\n", 0, m.start()) + 1
                        out.append(f"{os.path.relpath(path, root)}:{line}: TEST_CASE \"{m.group(1)}\" holds a ';', "
                                   "which splits it into ctest entries that run nothing: use ',' or ' and'")
    return out


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "tests"))
        with open(os.path.join(root, "tests", "a_test.cpp"), "w") as f:
            f.write('TEST_CASE("fine, with a comma") {}\nTEST_CASE("two halves; one lost") {}\n')
        found = problems(root)
        if len(found) != 1 or "a_test.cpp:2" not in found[0]:
            sys.exit(f"self-test: expected one problem at a_test.cpp:2, got {found}")
    print("ok: a name with ';' is caught, one with ',' is not")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        sys.exit(0)
    found = problems(sys.argv[1])
    for p in found:
        print(p)
    if found:
        sys.exit(1)
    print("ok: no TEST_CASE name holds a ';'")
