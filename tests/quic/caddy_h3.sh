# Sourced by the HTTP/3 tests and benchmark: start_caddy_h3 DIR PORT BODY
# [CMD-PREFIX...] writes a P-256 certificate for localhost (and 127.0.0.1)
# to DIR/cert.pem, a Caddyfile serving BODY on https://localhost:PORT with
# h1, h2 and h3 (and DIR/files/* under /files/), starts Caddy (its state
# kept in DIR) with the optional command prefix (e.g. taskset -c 0), sets
# caddy_pid, and waits until the UDP port is open.
start_caddy_h3() {
  local dir=$1 port=$2 body=$3
  shift 3
  mkdir -p "$dir/files"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
    -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
  cat > "$dir/Caddyfile" <<CADDY
{
  admin off
  auto_https off
  storage file_system $dir/storage
  servers {
    protocols h1 h2 h3
  }
}
https://localhost:$port {
  tls $dir/cert.pem $dir/key.pem
  handle_path /files/* {
    root * $dir/files
    file_server
  }
  respond "$body" 200
}
CADDY
  HOME=$dir XDG_CONFIG_HOME=$dir XDG_DATA_HOME=$dir "$@" caddy run --config "$dir/Caddyfile" --adapter caddyfile \
    >"$dir/caddy.log" 2>&1 &
  caddy_pid=$!
  for _ in $(seq 50); do ss -uln | grep -q ":$port " && return 0; sleep 0.1; done
  echo "caddy did not open UDP $port" >&2
  cat "$dir/caddy.log" >&2
  return 1
}
