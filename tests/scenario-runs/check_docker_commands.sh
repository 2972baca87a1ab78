#!/usr/bin/env bash
# The panel adapters' docker mode, against a fake docker CLI: `compose up -d`
# on start, `compose down` on stop, `compose down -v` on wipe, each with the
# box's cgroup path as STAND_CGROUP_PARENT and a compose file whose services
# take it as cgroup_parent; `docker restart <container>` listed for restarts.
set -euo pipefail
stand=$1 scenario=$2 plugins=$3
[[ -w /sys/fs/cgroup ]] || { echo "SKIP: no writable cgroups (the cgroup parent needs a box)"; exit 77; }
dir=$(mktemp -d /tmp/stand-docker-cmds.XXXXXX)
trap 'rm -rf "$dir"' EXIT
export FAKE_DOCKER_LOG=$dir/docker.log
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins"
cat "$FAKE_DOCKER_LOG"
python3 - "$dir/run" "$FAKE_DOCKER_LOG" <<'PY'
import json, re, sys
run, log = sys.argv[1], open(sys.argv[2]).read().splitlines()
expect = {"3x-ui": ("stand3xui", "stand_3xui", 1), "mistgate": ("standmistgate", None, None),
          "pasarguard": ("standpasar", "stand_pasarguard", 1), "remnawave": ("standremna", "stand_remnawave", 3)}
bad = False
calls = [l for l in log if l.startswith("argv=")]
for plugin, (project, container, services) in expect.items():
    rep = json.load(open(f"{run}/reps/{plugin}_r1.json"))
    facts = rep.get("facts", {})
    project = re.search(r"-p (\S+)", " ".join(facts["docker_commands"]["start"][0])).group(1)
    mine = [l for l in calls if f" -p {project} " in l]
    want = [" up -d", " down\t", " down -v"]
    got = [next((l for l in mine if w in l + "\t"), None) for w in want]
    print(plugin, "project", project, "calls", len(mine))
    for w, l in zip(want, got):
        if l is None:
            print(f"  {plugin}: no compose call with '{w.strip()}'"); bad = True
        elif not re.search(r"parent=/stand/[^\t]+/measured$", l):
            print(f"  {plugin}: '{w.strip()}' without the box as cgroup parent: {l}"); bad = True
    restart = facts["docker_commands"]["restart"][0]
    if restart[1] != "restart" and "restart" not in restart:
        print(f"  {plugin}: restart command {restart}"); bad = True
    if services is not None and facts.get("containers") != services:
        print(f"  {plugin}: containers {facts.get('containers')}, expected {services}"); bad = True
    if rep["status"] != "ok":
        print(f"  {plugin}: {rep['status']}: {rep.get('reason')}"); bad = True
compose_lines = [l for l in log if l.startswith("compose: ")]
if not compose_lines or any("${STAND_CGROUP_PARENT}" not in l for l in compose_lines):
    print("compose files without cgroup_parent: ${STAND_CGROUP_PARENT}"); bad = True
sys.exit(1 if bad else 0)
PY
