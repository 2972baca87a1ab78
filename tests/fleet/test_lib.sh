# Sourced by fleet tests that need only a rig: `fleet_rig NAME N NET` makes
# $dir (under /var/tmp, removed with the rig on exit), brings up N rig
# hosts on NET and sets ssh_opts; fail prints $dir/out and $dir/err.
# The caller sets $here (its own directory).
fail() { echo "FAIL: $*"; for f in "$dir"/out "$dir"/err; do [[ -f $f ]] && { echo "--- $f"; tail -40 "$f"; }; done; exit 1; }
fleet_rig() {
  dir=$(mktemp -d "/var/tmp/stand-fleet-$1.XXXXXX")
  trap '"$here/rig.sh" down "$dir/rig" >/dev/null 2>&1; rm -rf "$dir"' EXIT
  "$here/rig.sh" up "$dir/rig" "$2" "$3" || fail "the rig did not come up"
  ssh_opts=(--ssh-config "$dir/rig/ssh_config")
}
# fleet_push NAME=URL...: this stand and the plugins of $plugins onto those rig hosts.
fleet_push() {
  "$stand" fleet push "$@" "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err" || fail "push failed"
}
