#!/bin/sh
# Runs a stand command that must fail in one precise way.
#
#   expect_refusal.sh EXIT REGEX TIMEOUT [--also REGEX]... [--absent REGEX]... COMMAND [ARG]...
#
# Passes when COMMAND
#   - exits with exactly EXIT (so it did not die by a signal: that is >= 128),
#   - finishes within TIMEOUT seconds (else it is killed: a hang),
#   - prints (stdout and stderr combined) a line matching the extended regex
#     REGEX and every --also REGEX, and none matching an --absent REGEX,
#   - leaves no core file: it runs in a fresh scratch directory with
#     `ulimit -c unlimited`, which is checked for core* files afterwards.
# COMMAND's paths must be absolute (it runs in the scratch directory).
# STAND_PLUGIN_PATH is unset so the environment cannot add plugins.
set -u

if [ $# -lt 4 ]; then
    echo "usage: $0 EXIT REGEX TIMEOUT [--also REGEX]... [--absent REGEX]... COMMAND [ARG]..." >&2
    exit 2
fi
expected=$1
regex=$2
limit=$3
shift 3

scratch=$(mktemp -d "${TMPDIR:-/tmp}/stand-bad-plugin.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
also="$scratch/also"
absent="$scratch/absent"
: >"$also"
: >"$absent"
while [ $# -gt 0 ]; do
    case $1 in
    --also) printf '%s\n' "$2" >>"$also"; shift 2 ;;
    --absent) printf '%s\n' "$2" >>"$absent"; shift 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "expect_refusal: no command" >&2
    exit 2
fi

unset STAND_PLUGIN_PATH
mkdir "$scratch/cwd"
output="$scratch/output"
printf '$'
printf ' %s' "$@"
printf '\n'
started=$(date +%s)
(
    cd "$scratch/cwd" || exit 2
    ulimit -c unlimited 2>/dev/null || true
    exec timeout -k 5 "$limit" "$@"
) >"$output" 2>&1
code=$?
took=$(($(date +%s) - started))
cat "$output"
echo "--- exit code $code after ${took}s"

failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
    fail "hang: still running after ${limit}s, killed (exit $code)"
elif [ "$code" -ge 128 ]; then
    fail "the command died by signal $((code - 128)) (exit $code)"
elif [ "$code" -ne "$expected" ]; then
    fail "exit code $code, expected $expected"
fi
if ! grep -Eq -- "$regex" "$output"; then
    fail "no output line matches: $regex"
fi
while IFS= read -r re; do
    grep -Eq -- "$re" "$output" || fail "no output line matches: $re"
done <"$also"
while IFS= read -r re; do
    if grep -Eq -- "$re" "$output"; then fail "an output line matches what must be absent: $re"; fi
done <"$absent"
cores=$(find "$scratch/cwd" -maxdepth 1 -name 'core*' 2>/dev/null)
if [ -n "$cores" ]; then
    fail "core file(s) left: $cores"
fi
[ "$failed" -eq 0 ] && echo "OK"
exit "$failed"
