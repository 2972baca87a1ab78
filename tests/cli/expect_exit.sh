# Sourced by the CLI checks: `expect CODE REGEX -- ARGS...` runs "$stand" ARGS,
# and unless it exits CODE with output matching REGEX prints the output and
# sets fail=1.
fail=0
expect() {
  local code=$1 regex=$2; shift 3
  local out; out=$("$stand" "$@" 2>&1); local got=$?
  if [[ $got -ne $code ]] || ! grep -qE -- "$regex" <<<"$out"; then
    echo "FAIL: stand $* -> exit $got (want $code), output:"; echo "$out" | sed 's/^/    /'; fail=1
  else
    echo "ok: stand $* -> $got"
  fi
}
