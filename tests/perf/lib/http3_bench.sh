# shellcheck shell=bash disable=SC2034,SC2154  # sets variables for its caller, reads the caller's
# Sourced by the perf scripts that compare `stand load --http3` with Debian's
# ngtcp2 example client (gtlsclient, package ngtcp2-client: the same ngtcp2 +
# GnuTLS + nghttp3 stack) on one Caddy HTTP/3 site on loopback.
#   start_http3_bench DIR PORT [CMD-PREFIX...]
#       starts Caddy (tests/quic/caddy_h3.sh: DIR/cert.pem, caddy_pid) serving
#       "hello" on https://localhost:PORT/ with the optional prefix (taskset),
#       sets url, and proves gtlsclient completes every one of 200 requests
#       there (its -q, used in the runs, prints nothing to check)
#   http3_clients N
#       sets stand_h3 and gtls_h3, the command lines of the same work: N GET
#       requests on one QUIC connection with 100 streams in flight (gtlsclient
#       opens every stream the server allows, 100 with Caddy's quic-go)
# Needs $STAND.

start_http3_bench() {
  local got
  http3_dir=$1 http3_port=$2
  shift 2
  # shellcheck source=tests/quic/caddy_h3.sh
  source "$(dirname "${BASH_SOURCE[0]}")/../../quic/caddy_h3.sh"
  start_caddy_h3 "$http3_dir" "$http3_port" "hello" "$@"
  url=https://localhost:$http3_port/
  got=$(gtlsclient -n 200 --exit-on-all-streams-close localhost "$http3_port" "$url" 2>&1 >/dev/null |
        grep -c ':status: 200' || true)
  [[ $got == 200 ]] || { echo "gtlsclient got $got of 200 responses" >&2; exit 1; }
}

http3_clients() {
  stand_h3=("$STAND" load --http3 --cacert "$http3_dir/cert.pem" -t 1 -c 1 --streams 100 --requests "$1" -d 600s
            --json "$url")
  gtls_h3=(gtlsclient -q -n "$1" --exit-on-all-streams-close --max-streams-bidi 100 localhost "$http3_port" "$url")
}
