# Sourced by the tests that load a `stand backend` (bash): a work directory
# and a backend on a free loopback port, both gone when the test exits.
#   source tests/stand_backend.sh; start_backend STAND NAME
# sets dir (mktemp -d /tmp/stand-NAME.XXXXXX), backend_pid and url
# (http://127.0.0.1:PORT/); fail MESSAGE prints it and the *.err files of
# dir, and exits 1.
backend_pid=
dir=
cleanup_backend() { [[ -n $backend_pid ]] && kill "$backend_pid" 2>/dev/null; [[ -n $dir ]] && rm -rf "$dir"; }
fail() { echo "FAIL: $*"; cat "$dir"/*.err 2>/dev/null; exit 1; }
start_backend() {  # STAND NAME
  dir=$(mktemp -d "/tmp/stand-$2.XXXXXX")
  trap cleanup_backend EXIT
  "$1" backend --listen 127.0.0.1:0 >"$dir/backend.out" 2>"$dir/backend.err" &
  backend_pid=$!
  for _ in $(seq 50); do [[ -s $dir/backend.out ]] && break; sleep 0.1; done
  url=http://$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["listen"])' "$dir/backend.out")/
}
