#!/usr/bin/env bash
# `stand run --check` validates everything a run would and measures nothing
# (exit 0 or 2, as `nginx -t`); a probe step's job and params are checked
# against the probe plugin's own list of jobs before anything runs, in a
# normal run too (issue 18: probe params were checked only when their step
# ran, after the earlier steps had run).
#   check_run_check.sh STAND SCENARIOS_DIR PLUGINS
set -uo pipefail
stand=$1 scenarios=$2 plugins=$3
dir=$(mktemp -d /tmp/stand-run-check.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*"; cat out err 2>/dev/null; exit 1; }
expect() {  # expect CODE STDERR_TEXT -- ARGS...
  local code=$1 text=$2; shift 3
  "$stand" run "$@" --plugin-path "$plugins" >out 2>err
  local rc=$?
  [[ $rc == "$code" ]] || fail "stand run $*: exit $rc, expected $code"
  [[ -z $text ]] || grep -qF -- "$text" err || fail "stand run $*: stderr lacks: $text"
}
expect 0 "" -- --check "$scenarios/disk-quick.json"
grep -qF "disk-quick.json: ok (1 plugin(s), 8 step(s), 1 repetition(s) planned)" out || fail "no ok line: $(cat out)"
expect 2 "\$.phases[0].steps[0].params: disk's job 'seq1m-q8t1-read' refuses these params: duration_s: expected a number 1.." \
  -- --check "$scenarios/disk-quick.json" --param duration_s=0
sed 's/"job": "rnd4k-q1t1-write"/"job": "rnd4k-q1t1-writ"/' "$scenarios/disk-quick.json" >typo.json
expect 2 "\$.phases[0].steps[7].job: disk has no probe job 'rnd4k-q1t1-writ' (it has: " -- --check typo.json
expect 2 "no plugin with this id" -- --check "$scenarios/disk-quick.json" --plugin no-such-plugin
# A plugin config is checked against the plugin's published schema before anything runs.
cat >cfg.json <<'JSON'
{"schema_version": 1, "name": "cfg", "plugins": [{"id": "disk", "config": {"bogus": 1}}],
 "phases": [{"name": "a", "steps": [{"step": "install"}]}]}
JSON
expect 2 "cfg.json: \$.plugins[0].config: disk's config schema (stand info disk) refuses: bogus: unknown key" -- --check cfg.json
sed 's/{"bogus": 1}/{"bogus": "${data_dir}"}/' cfg.json >placeholder.json
expect 2 "" -- --check placeholder.json  # an unknown key stays unknown, placeholder or not
grep -q "unknown key" err || fail "a placeholder under an unknown key was not refused"
# A normal run makes the same check before its first step: nothing measured, no run directory.
expect 2 "refuses these params: duration_s" -- "$scenarios/disk-quick.json" --param duration_s=0 --run-dir "$dir/run"
[[ ! -e $dir/run ]] || fail "a refused run wrote $dir/run"
[[ ! -e runs ]] || fail "--check wrote a run directory"
# A config its schema allows but the plugin refuses when created (one key
# needing another) is refused by --check too (it creates each plugin once),
# exit 2; a run refuses a config its schema refuses before anything runs.
echo '{"mode": "native", "command": ["true"], "node_xray": "/bin/true"}' >refused.json
expect 2 "--plugin pasarguard.config: pasarguard refuses its config: config.node_xray: only with config.node" \
  -- --check "$scenarios/panel-only.json" --plugin pasarguard=@refused.json
expect 2 "disk's config schema (stand info disk) refuses: bogus: unknown key" -- cfg.json --run-dir "$dir/run-schema"
[[ ! -e $dir/run-schema ]] || fail "a run with a config its schema refuses wrote $dir/run-schema"
echo "ok: --check passes a good scenario and refuses a bad param, a misspelt job, an unknown plugin, a config its schema refuses and one the plugin refuses (exit 2), before measuring"

# --param-file: a JSON object of params, each as --param gives it (--param wins).
echo '{"duration_s": 0}' >params.json
expect 2 "refuses these params: duration_s" -- --check "$scenarios/disk-quick.json" --param-file params.json
expect 0 "" -- --check "$scenarios/disk-quick.json" --param-file params.json --param duration_s=2
echo '[1]' >notobject.json
expect 2 "--param-file notobject.json: expected a JSON object" -- --check "$scenarios/disk-quick.json" --param-file notobject.json
echo '{"nosuch": 1}' >unknown.json
expect 2 "--param nosuch: the scenario declares no such parameter" -- --check "$scenarios/disk-quick.json" --param-file unknown.json
# Host options: malformed hosts, options without a host and --resume with hosts are usage errors.
expect 2 "--host: " -- --check "$scenarios/disk-quick.json" --host 'a;b=ssh://root@10.0.0.5'
expect 2 "--ssh-config and --accept-new-host-key go with --host" -- "$scenarios/disk-quick.json" --ssh-config /dev/null
expect 2 "--resume" -- --resume "$dir" --host a=ssh://root@127.0.0.1
sed 's/"name": "disk-quick",/"name": "disk-quick", "hosts": {"a": "ssh:\/\/root:pw@10.0.0.5"},/' "$scenarios/disk-quick.json" >hosts.json
grep -q '"hosts"' hosts.json || fail "could not add hosts to the scenario"
expect 2 "hosts.json: \$.hosts.a: " -- --check hosts.json
echo "ok: --param-file and host options"
