# Sourced by the scripts that run the Hysteria 2 test server inside the
# measured box through fixture-command, with $stand, $scenario, $plugins and
# $server set: skips (77) without the server or cgroups, makes its
# certificate and users file, moves the scenario's ports something else holds,
# runs the scenario into $dir/run and prints
# summary.md's "What these numbers do not tell you".
[[ -x $server ]] || { echo "the Hysteria 2 test server was not built ($server): is Go installed?"; exit 77; }
[[ -e /sys/fs/cgroup/cpu/cpu.cfs_period_us || -e /sys/fs/cgroup/cgroup.subtree_control ]] \
  || { echo "no cpu cgroup controller here: no quota box"; exit 77; }
dir=$(mktemp -d /tmp/stand-detector.XXXXXX)
trap 'rm -rf "$dir"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
  -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
echo alice >"$dir/users"
"$(dirname "${BASH_SOURCE[0]}")/../relocate_ports.py" "$scenario" "$dir/scenario.json" >/dev/null  # busy ports moved
"$stand" run "$dir/scenario.json" --run-dir "$dir/run" --plugin-path "$plugins" --param "server_bin=$server" \
  --param "cert=$dir/cert.pem" --param "key=$dir/key.pem" --param "users=$dir/users"
sed -n '/^## What these numbers do not tell you/,$p' "$dir/run/summary.md"
