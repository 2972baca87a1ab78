#!/usr/bin/env bash
# stand fleet against real sshd hosts (rig.sh: two network namespaces):
# check names a host without this stand and what to run; push installs it
# (and sends nothing the second time); check then reports each host's stand,
# cgroups, CPUs and clock offset, as text and JSON; an unknown host key is
# refused unless --accept-new-host-key; malformed hosts are usage errors.
#   check_push_check.sh STAND PLUGINS NET
set -uo pipefail
stand=$1 plugins=$2 net=$3
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/stand-fleet.XXXXXX)
cleanup() { "$here/rig.sh" down "$dir/rig" >/dev/null 2>&1; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/out "$dir"/err; do [[ -f $f ]] && { echo "--- $f"; cat "$f"; }; done; exit 1; }
"$here/rig.sh" up "$dir/rig" 2 "$net" || fail "the rig did not come up"
h1="h1=ssh://root@$net.11" h2="h2=ssh://root@$net.12"
ssh_opts=(--ssh-config "$dir/rig/ssh_config")
fleet() { "$stand" fleet "$@" >"$dir/out" 2>"$dir/err"; }

fleet check "$h1" "${ssh_opts[@]}"
[[ $? == 1 ]] || fail "check of a host without stand did not exit 1"
grep -q "is not installed on h1 (installed there: none); run: stand fleet push ssh://root@$net.11:22" "$dir/err" ||
  fail "check does not say what to run"

fleet push "$h1" "$h2" "${ssh_opts[@]}" --plugin-path "$plugins" || fail "push failed"
[[ $(grep -c "installed ~/.stand/stand-" "$dir/out") == 2 ]] || fail "push did not install on both hosts"
for i in 1 2; do
  [[ -x $(ls -d "$dir"/rig/home_$i/.stand/stand-*/bin/stand) ]] || fail "no stand in host $i's home"
  ls "$dir"/rig/home_$i/.stand/stand-*/plugins/*.so >/dev/null || fail "no plugins in host $i's home"
done
ls "$dir"/rig/home_1/.stand | grep -q incoming && fail "a staging directory was left"
fleet push "$h1" "${ssh_opts[@]}" --plugin-path "$plugins" || fail "the second push failed"
grep -q "is there already" "$dir/out" || fail "the second push sent it again"

fleet check "$h1" "$h2" "${ssh_opts[@]}" || fail "check after push failed"
[[ $(grep -cE "^h[12] \(ssh://root@$net\.1[12]:22\): stand [0-9.]+ \(ABI 1\.[0-9]+, build [0-9a-f]{12}\), cgroup (v1|v2), CPUs [0-9,-]+, [0-9]+ MiB, kernel .*, clock offset [-+][0-9.]+ ms ± [0-9.]+ ms$" "$dir/out") == 2 ]] ||
  fail "check's lines are not as documented"
fleet check "$h1" "${ssh_opts[@]}" --json || fail "check --json failed"
local_build=$("$stand" fleet facts | python3 -c 'import json,sys; print(json.load(sys.stdin)["stand"]["build_id"])')
python3 - "$dir/out" "$local_build" <<'PY' || fail "check --json is not as documented"
import json, sys
doc = json.load(open(sys.argv[1]))
(h,) = doc["hosts"]
assert h["ok"] and h["problem"] == "" and h["name"] == "h1", h
assert h["facts"]["stand"]["build_id"] == sys.argv[2], h["facts"]["stand"]
# Same kernel clock: the offset is within its own uncertainty plus a little.
assert abs(h["clock_offset_ns"]) <= h["clock_uncertainty_ns"] + 2_000_000, h
assert h["clock_samples"] == 9 and 0 < h["clock_uncertainty_ns"] < 50_000_000, h
PY

# A host key not in known_hosts: refused, unless accepted explicitly.
sed "s|UserKnownHostsFile .*|UserKnownHostsFile $dir/empty_known_hosts|" "$dir/rig/ssh_config" >"$dir/strict_config"
: >"$dir/empty_known_hosts"
fleet check "$h1" --ssh-config "$dir/strict_config"
[[ $? == 1 ]] || fail "an unknown host key was not refused"
grep -q "Host key verification failed.*--accept-new-host-key" "$dir/err" || fail "the refusal does not say what to do"
fleet check "$h1" --ssh-config "$dir/strict_config" --accept-new-host-key || fail "--accept-new-host-key did not accept"
grep -q "^$net.11 " "$dir/empty_known_hosts" || fail "the accepted key was not recorded"

# Malformed hosts are usage errors, before any connection.
for bad in "h=ssh://root:pw@$net.11" "h=ssh://root@$net.11/x" "h;x=ssh://root@$net.11" "h=ssh://root@-oProxyCommand=id"; do
  fleet check "$bad" "${ssh_opts[@]}"
  [[ $? == 2 ]] || fail "'$bad' was not a usage error"
done
"$stand" fleet --help | grep -q "usage: stand fleet push HOST" || fail "no fleet --help"
echo "ok: fleet check, push, check again (text and JSON), host keys and malformed hosts on two sshd namespaces"
