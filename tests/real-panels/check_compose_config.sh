#!/usr/bin/env bash
# The compose file a panel adapter writes in docker mode passes a real compose
# implementation's validation: `docker-compose config` (1.29, Debian 12). The
# adapter runs install, start and stop against the fake docker CLI
# (tests/doubles/fake-docker: no container runs), which leaves the file it
# wrote in the run's data dir. Exit 77 when docker-compose is missing.
#   check_compose_config.sh STAND PLUGINS FAKE_DOCKER PLUGIN [CONFIG_JSON]
# CONFIG_JSON: more of the adapter's config (e.g. Mistgate's {"node_command": []}).
set -euo pipefail
stand=$1 plugins=$2 fake_docker=$3 plugin=$4 extra=${5:-"{}"}
command -v docker-compose >/dev/null 2>&1 ||
  { echo "SKIP: docker-compose not installed (Debian: apt-get install docker-compose)"; exit 77; }
[[ -w /sys/fs/cgroup ]] || { echo "SKIP: no writable cgroups (the cgroup parent needs a box)"; exit 77; }
dir=$(mktemp -d /tmp/stand-compose-config.XXXXXX)
trap 'rm -rf "$dir"' EXIT
export FAKE_DOCKER_LOG=$dir/docker.log
config=$(python3 -c 'import json, sys; print(json.dumps({"mode": "docker", "docker": sys.argv[1], **json.loads(sys.argv[2])}))' \
         "$fake_docker" "$extra")
cat >"$dir/scenario.json" <<EOF
{"schema_version": 1, "name": "compose-file-$plugin",
 "plugins": [{"id": "$plugin", "config": $config}],
 "box": {"vcpu": 1, "memory_mib": 1024}, "repetitions": 1, "order": "fixed", "sample_interval_ms": 200,
 "phases": [{"name": "lifecycle", "steps": [{"step": "install"}, {"step": "start"}, {"step": "stop"}]}]}
EOF
"$stand" run "$dir/scenario.json" --run-dir "$dir/run" --plugin-path "$plugins" >"$dir/run.log" 2>&1 ||
  { cat "$dir/run.log"; echo "stand run of $plugin in docker mode failed"; exit 1; }
file=$(sed -n 's/^argv=.* -f \([^ ]*compose[^ ]*\) up -d.*/\1/p' "$FAKE_DOCKER_LOG" | head -1)
[[ -n $file && -f $file ]] || { cat "$FAKE_DOCKER_LOG"; echo "$plugin: no compose file in its 'compose up' call"; exit 1; }
echo "$plugin: $file"
cat "$file"
# The host hands the box's path over as STAND_CGROUP_PARENT; any path does here.
if ! STAND_CGROUP_PARENT=/stand/compose-check/measured docker-compose -p standcheck -f "$file" config -q 2>"$dir/err"; then
  cat "$dir/err"
  echo "$plugin: docker-compose $(docker-compose version --short) rejects its compose file (above)"
  exit 1
fi
[[ ! -s $dir/err ]] || { cat "$dir/err"; echo "$plugin: docker-compose warns about its compose file (above)"; exit 1; }
echo "ok: docker-compose $(docker-compose version --short) config accepts $plugin's compose file"
