# Sourced by the podman tests (bash): podman configured for this machine kind
# (containers.conf beside this file, through CONTAINERS_CONF) and, for
# compose, a podman API service of the test's own on a socket under a given
# folder (DOCKER_HOST).
#   podman_require TOOL...       exit 77 naming what is missing
#   podman_service_start DIR     podman system service on DIR/podman.sock
#   podman_service_stop          (call it from the script's EXIT trap)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf}

podman_require() {
  local missing=() t
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  if ((${#missing[@]})); then
    echo "SKIP: not installed: ${missing[*]} (Debian: apt-get install podman runc docker-compose debootstrap)"
    exit 77
  fi
  if [[ $(id -u) != 0 ]]; then echo "SKIP: podman's cgroup parent and debootstrap need root"; exit 77; fi
  if ! podman info --format '{{.Host.OCIRuntime.Name}}' >/dev/null 2>&1; then
    echo "SKIP: podman cannot run here (CONTAINERS_CONF=$CONTAINERS_CONF):"
    podman info 2>&1 | tail -3
    exit 77
  fi
}

_podman_service_pid=
podman_service_stop() {
  [[ -n $_podman_service_pid ]] || return 0
  kill "$_podman_service_pid" 2>/dev/null || true
  wait "$_podman_service_pid" 2>/dev/null || true
  _podman_service_pid=
}

podman_service_start() {
  local dir=$1 i
  mkdir -p "$dir"
  rm -f "$dir/podman.sock"
  podman system service --time=0 "unix://$dir/podman.sock" >"$dir/podman-service.log" 2>&1 &
  _podman_service_pid=$!
  for ((i = 0; i < 100; i++)); do
    [[ -S $dir/podman.sock ]] && break
    kill -0 "$_podman_service_pid" 2>/dev/null || { echo "podman system service exited:"; cat "$dir/podman-service.log"; exit 1; }
    sleep 0.1
  done
  [[ -S $dir/podman.sock ]] || { echo "podman system service made no socket $dir/podman.sock in 10 s"; exit 1; }
  export DOCKER_HOST=unix://$dir/podman.sock
}
