#!/usr/bin/env bash
# `stand compat --junit` writes one <testcase> per check, no failures for
# hello; with --check, only the checks run.
set -euo pipefail
stand=${1:?}
xml=$(mktemp /tmp/stand-junit.XXXXXX.xml)
trap 'rm -f "$xml"' EXIT
"$stand" compat hello --junit "$xml" >/dev/null
grep -q '<testsuite name="stand compat hello" tests="6" failures="0"' "$xml"
[[ $(grep -c '<testcase ' "$xml") -eq 6 ]]
! grep -q '<failure' "$xml"
echo "ok: $(grep -c '<testcase ' "$xml") testcases, no failures"
"$stand" compat hello --junit "$xml" --check generic.unknown-interface --check generic.load >/dev/null
grep -q '<testsuite name="stand compat hello" tests="2" failures="0"' "$xml"
[[ $(grep -c '<testcase ' "$xml") -eq 2 ]]
grep -q 'name="generic.load"' "$xml"
grep -q 'name="generic.unknown-interface"' "$xml"
echo "ok: --check: 2 testcases"
