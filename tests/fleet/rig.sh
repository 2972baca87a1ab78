#!/usr/bin/env bash
# Real ssh hosts on this machine for the fleet tests: N network namespaces
# on one bridge, each running Debian's sshd on its own address with a host
# key, and a client key and known_hosts made for this rig alone. Root only.
#   rig.sh up DIR N [NET]   NET: the first three octets (default 10.231.7);
#                           host i (1..N) is NET.(10+i), the bridge NET.1
#   rig.sh restart-sshd DIR I   starts host I's sshd again (after a test killed it)
#   rig.sh down DIR         kills the sshds, removes the namespaces and bridge
#   rig.sh exec DIR I CMD...    runs CMD in host I's network namespace (a server
#                           on the host's address, tc on its link)
# Each host has its own home (DIR/home_I over /root); the rest of the file
# system is this machine's. DIR gets ssh_config (pass it as stand fleet
# --ssh-config), the keys, each sshd's config and log, and hosts.txt: one "hI ssh://root@ADDRESS:22" line
# per host. Names derive from DIR's hash, so rigs in two DIRs never clash.
set -euo pipefail

die() { echo "rig.sh: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "needs root (network namespaces, sshd)"
cmd=${1:-}; dir=${2:-}
[[ -n $cmd && -n $dir ]] || die "usage: rig.sh up DIR N [NET] | rig.sh down DIR"
tag=$(printf '%s' "$(realpath -m "$dir")" | sha256sum | cut -c1-6)
bridge=stbr$tag

down() {
  if [[ -f $dir/pids ]]; then
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$dir/pids"
    rm -f "$dir/pids"
  fi
  for ns in $(ip netns list | awk '{print $1}' | grep "^stfl$tag-" || true); do
    ip netns pids "$ns" | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns"
  done
  ip link del "$bridge" 2>/dev/null || true
}

# Host I's sshd, in its network namespace with its own home (a bind mount
# over /root in a mount namespace of its own: what one host installs in ~
# the others do not see). nsenter, not `ip netns exec`: that mounts a fresh
# /sys, which hides the cgroup hierarchies a host's boxes need.
start_sshd() {
  local i=$1
  nsenter --net="/run/netns/stfl$tag-$i" unshare -m --propagation private sh -c \
    'mount --bind "$1" /root && exec /usr/sbin/sshd -D -e -f "$2"' sh "$dir/home_$i" "$dir/sshd_$i.conf" \
    >>"$dir/sshd_$i.log" 2>&1 &
  echo $! >>"$dir/pids"
}

# Until host I's sshd answers.
await_sshd() {
  local i=$1 addr tries=0
  addr=$(sed -n "${i}p" "$dir/hosts.txt" | sed 's|.*@||; s|:.*||')
  until ssh -F "$dir/ssh_config" -o BatchMode=yes -o ConnectTimeout=2 "root@$addr" true 2>/dev/null; do
    ((++tries < 50)) || die "sshd on $addr did not answer (log: $dir/sshd_$i.log)"
    sleep 0.1
  done
}

up() {
  local n=$1 net=${2:-10.231.7}
  [[ $n =~ ^[1-9]$ ]] || die "N must be 1..9"
  command -v sshd >/dev/null || [[ -x /usr/sbin/sshd ]] || die "no sshd (apt-get install openssh-server)"
  mkdir -p "$dir" /run/sshd
  chmod 700 "$dir"
  down
  ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key" -C "stand fleet rig" <<<y >/dev/null
  cp "$dir/client_key.pub" "$dir/authorized_keys"
  : >"$dir/known_hosts" >"$dir/hosts.txt" >"$dir/pids"
  ip link add "$bridge" type bridge
  ip addr add "$net.1/24" dev "$bridge"
  ip link set "$bridge" up
  for i in $(seq 1 "$n"); do
    local ns=stfl$tag-$i addr=$net.$((10 + i)) veth=stv$tag$i
    ip netns add "$ns"
    ip link add "$veth" type veth peer name eth0 netns "$ns"
    ip link set "$veth" master "$bridge" up
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    ip -n "$ns" route add default via "$net.1"
    ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key_$i" <<<y >/dev/null
    cat >"$dir/sshd_$i.conf" <<CONF
ListenAddress $addr
Port 22
HostKey $dir/host_key_$i
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
PidFile none
AcceptEnv LANG LC_*
MaxSessions 64
MaxStartups 64
CONF
    mkdir -p "$dir/home_$i"
    start_sshd "$i"
    echo "$addr $(cut -d' ' -f1-2 "$dir/host_key_$i.pub")" >>"$dir/known_hosts"
    echo "h$i ssh://root@$addr:22" >>"$dir/hosts.txt"
  done
  cat >"$dir/ssh_config" <<CONF
Host *
  IdentityFile $dir/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $dir/known_hosts
  GlobalKnownHostsFile /dev/null
CONF
  # Each sshd answers before the rig counts as up.
  for i in $(seq 1 "$n"); do await_sshd "$i"; done
}

case $cmd in
  up) up "${3:-}" "${4:-}" ;;
  restart-sshd) [[ ${3:-} =~ ^[1-9]$ && -f $dir/sshd_${3}.conf ]] || die "usage: rig.sh restart-sshd DIR I (a host of the rig)"
                start_sshd "$3"; await_sshd "$3" ;;
  down) down ;;
  exec) [[ ${3:-} =~ ^[1-9]$ && -f $dir/sshd_${3}.conf && $# -gt 3 ]] || die "usage: rig.sh exec DIR I CMD... (a host of the rig)"
        ns=/run/netns/stfl$tag-$3; shift 3; exec nsenter --net="$ns" "$@" ;;
  *) die "unknown command '$cmd' (up, restart-sshd, exec, down)" ;;
esac
