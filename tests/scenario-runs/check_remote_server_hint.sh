#!/usr/bin/env bash
# A tunnel step whose subscription link names its server by a name (the
# PasarGuard double's links name node1.bench.test, as the adapter's node
# host) fails saying how to go on, and the --param it names is one that
# `stand run` accepts: the failure's own text, run through `stand run
# --check`, exits 0 (it once named --allow-remote, which `stand run`
# refuses as unknown). Nothing is looked up, nothing leaves this machine.
#   check_remote_server_hint.sh STAND PLUGIN_DIR SOURCE_DIR PORT
set -euo pipefail
stand=$1 plugins=$2 source_dir=$3 port=$4
dir=$(mktemp -d /tmp/stand-remote-hint.XXXXXX)
trap 'rm -rf "$dir"' EXIT
port=$("$(dirname "$0")/../relocate_ports.py" --free-block "$port" 2)  # this port and the next, unless something else holds one
double=$source_dir/tests/doubles/pasarguard

cat >"$dir/pasarguard.json" <<EOF
{
  "mode": "native",
  "command": ["python3", "$double/pasarguard_double.py", "--port", "\${port}", "--state-dir", "\${data_dir}"],
  "temp_key_command": ["python3", "$double/pasarguard_cli.py", "generate-temp-key", "--state-dir", "\${data_dir}"],
  "env": {"PYTHONDONTWRITEBYTECODE": "1"},
  "port": $port,
  "protocol": "hysteria2",
  "inbound_port": $((port + 1))
}
EOF
cat >"$dir/scenario.json" <<'EOF'
{
  "schema_version": 1,
  "name": "remote-server-hint",
  "params": {"server": ""},
  "plugins": ["pasarguard"],
  "backend": {},
  "phases": [
    {"name": "setup", "steps": [{"step": "install"}, {"step": "start"}, {"step": "wait_ready"},
                                {"step": "bootstrap"}, {"step": "create_users", "count": 1}]},
    {"name": "tunnel", "steps": [{"step": "tunnel_throughput", "name": "T", "server": "${server}",
                                  "duration_s": 1}]},
    {"name": "teardown", "steps": [{"step": "stop"}, {"step": "wipe"}]}
  ]
}
EOF
run=(--plugin-path "$plugins" --plugin "pasarguard=@$dir/pasarguard.json")

status=0
"$stand" run "$dir/scenario.json" --run-dir "$dir/run" "${run[@]}" >"$dir/out" 2>&1 || status=$?
cat "$dir/out"
[[ $status == 1 ]] || { echo "FAIL: stand run exited $status, expected 1 (the tunnel step fails)"; exit 1; }
message=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["reason"])' "$dir/run/reps/pasarguard_r1.json")
echo "the step's failure: $message"
if grep -q -- '--allow-remote' <<<"$message"; then
  echo "FAIL: the failure names --allow-remote, an option stand run does not have"
  exit 1
fi
grep -q "node1.bench.test" <<<"$message" || { echo "FAIL: the failure does not name the server"; exit 1; }
# The option it names, as it is written there: --param 'NAME=VALUE'.
option=$(sed -n "s/.*--param '\([^']*\)'.*/\1/p" <<<"$message")
[[ $option == server=hysteria2://* ]] || { echo "FAIL: no --param 'server=hysteria2://...' in the failure"; exit 1; }
echo "stand run --check ... --param '$option'"
"$stand" run --check "$dir/scenario.json" "${run[@]}" --param "$option"
