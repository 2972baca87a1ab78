# Sourced by the perf scripts: one nginx on loopback answering `return 200
# "ok"` (one worker, no access log, keep-alive without limit), in $work.
#   start_nginx_return200 WORK [CPU_PREFIX...]
# sets port, url (http://127.0.0.1:PORT/) and nginx_pid; stop_nginx stops it.
# Needs $NGINX (the binary) and a die() function.

free_loopback_port() {
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

start_nginx_return200() {
  local dir=$1; shift
  port=$(free_loopback_port) || die "no free port"
  mkdir -p "$dir/tmp"
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile 65536;
error_log $dir/error.log warn;
pid $dir/nginx.pid;
events { worker_connections 16384; }
http {
  access_log off;
  keepalive_requests 10000000;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  server {
    listen 127.0.0.1:$port backlog=4096;
    location / { return 200 "ok"; }
  }
}
CONF
  "$@" "$NGINX" -c "$dir/nginx.conf" -p "$dir" -g 'daemon off;' &
  nginx_pid=$!
  for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
    sleep 0.05
  done
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null || die "nginx did not start: $(cat "$dir/error.log")"
  url=http://127.0.0.1:$port/
}

stop_nginx() {
  if [[ -n ${nginx_pid:-} ]]; then kill -QUIT "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  nginx_pid=
}
