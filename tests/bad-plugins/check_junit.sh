#!/bin/sh
# Checks the JUnit XML `stand compat --junit` writes for bad plugins.
#
#   check_junit.sh STAND PLUGIN EXIT REGEX [PLUGIN EXIT REGEX]...
#
# For every PLUGIN runs `STAND compat --timeout 1 --junit FILE PLUGIN` and
# checks: the exit code is EXIT; FILE is a complete JUnit document (XML
# declaration, one <testsuites>/<testsuite>, as many <testcase> as
# </testcase>, failures="N" with N > 0 matching the <failure> elements) and
# holds a <failure message="..."> whose message matches the extended regex
# REGEX (as escaped in the XML). When a working python3 is present the file
# is also parsed with xml.dom.minidom; grep alone is the baseline.
set -u

if [ $# -lt 4 ] || [ $(($# % 3)) -ne 1 ]; then
    echo "usage: $0 STAND PLUGIN EXIT REGEX [PLUGIN EXIT REGEX]..." >&2
    exit 2
fi
stand=$1
shift
scratch=$(mktemp -d "${TMPDIR:-/tmp}/stand-bad-junit.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
unset STAND_PLUGIN_PATH

python=
if command -v python3 >/dev/null 2>&1 && python3 -c 'import xml.dom.minidom' >/dev/null 2>&1; then python=python3; fi

failed=0
n=0
bad() {
    echo "FAIL ($plugin): $*"
    failed=1
    this=1
}
while [ $# -gt 0 ]; do
    plugin=$1 expected=$2 regex=$3
    shift 3
    n=$((n + 1))
    xml="$scratch/$n.xml"
    this=0
    echo "== $plugin"
    timeout -k 5 20 "$stand" compat --timeout 1 --junit "$xml" "$plugin" >"$scratch/$n.out" 2>&1
    code=$?
    if [ "$code" -ne "$expected" ]; then
        cat "$scratch/$n.out"
        bad "exit code $code, expected $expected"
    fi
    if [ ! -s "$xml" ]; then
        bad "no JUnit file written"
        continue
    fi
    head -n 1 "$xml" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>$' || bad "no XML declaration"
    [ "$(grep -c '<testsuites>' "$xml")" -eq 1 ] || bad "not exactly one <testsuites>"
    [ "$(grep -c '</testsuites>' "$xml")" -eq 1 ] || bad "not exactly one </testsuites>"
    [ "$(grep -c '<testsuite ' "$xml")" -eq 1 ] || bad "not exactly one <testsuite>"
    [ "$(grep -c '</testsuite>' "$xml")" -eq 1 ] || bad "not exactly one </testsuite>"
    open=$(grep -o '<testcase ' "$xml" | wc -l)
    close=$(grep -o '</testcase>' "$xml" | wc -l)
    [ "$open" -gt 0 ] && [ "$open" -eq "$close" ] || bad "$open <testcase> but $close </testcase>"
    failures=$(grep -o '<failure message=' "$xml" | wc -l)
    declared=$(sed -n 's/.*<testsuite [^>]*failures="\([0-9]*\)".*/\1/p' "$xml")
    [ "$failures" -gt 0 ] || bad "no <failure> element"
    [ "${declared:-x}" = "$failures" ] || bad "failures=\"$declared\" but $failures <failure> elements"
    grep -Eq -- "<failure message=\"[^\"]*($regex)[^\"]*\">" "$xml" || bad "no <failure message=...> matches: $regex"
    if [ -n "$python" ]; then
        "$python" -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$xml" || bad "not well-formed XML"
    fi
    if [ "$this" -ne 0 ]; then cat "$xml"; fi
done
[ "$failed" -eq 0 ] && echo "OK: $n JUnit files${python:+ (also parsed by $python)}"
exit "$failed"
