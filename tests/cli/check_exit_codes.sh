#!/usr/bin/env bash
# Exit codes of the stand CLI mean something; check each with its message.
set -uo pipefail
stand=${1:?}
source "$(dirname "${BASH_SOURCE[0]}")/expect_exit.sh"
expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 2 "usage: stand COMMAND" --
expect 2 "unknown option '--bogus' for 'plugins'" -- plugins --bogus
expect 2 "'info' needs a plugin id or file" -- info
expect 2 "--timeout: expected seconds" -- compat hello --timeout -3
expect 3 "refused no-such-plugin: no plugin with this id in the search path" -- info no-such-plugin
expect 3 "refused /nonexistent/x.so: no such file" -- compat /nonexistent/x.so
expect 1 "create\\(\\) failed with invalid-argument: config.sleeps: expected an integer" -- \
  compat hello --config '{"sleeps":"many"}'
expect 2 "fleet collect: /nonexistent/fleet.json: not a fleet.json of a run on hosts" -- fleet collect /nonexistent
expect 2 "needs one RUN_DIR after collect" -- fleet collect
expect 0 "6 passed, 0 failed" -- compat hello --config '{"sleeps":5,"sleep_us":10}'
expect 2 "--check: no check 'generic.invalid-confg' here \(did you mean generic.invalid-config\?\)" -- \
  compat hello --check generic.invalid-confg
expect 2 "no check 'panel.start-ready' here \(the panel checks run with --target-config FILE" -- \
  compat hello --check panel.start-ready
expect 0 "1 passed, 0 failed; 5 more check\(s\) of the suite not run \(--check\)" -- \
  compat hello --check generic.invalid-config
# A compat target handed to a run as a plugin config is named as one (issue 51).
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
echo '{"schema_version": 1, "name": "t", "plugins": ["hello"], "phases": [{"name": "x", "steps": [{"step": "idle", "duration_s": 1}]}]}' \
  >"$scratch/s.json"
echo '{"config": {"sleeps": 5}, "users": 5, "ready_timeout_s": 10}' >"$scratch/target.json"
expect 2 "This is a compat target \(stand compat --target-config\): a run takes the plugin config under its \"config\" alone" -- \
  run "$scratch/s.json" --check --plugin "hello=@$scratch/target.json"
exit $fail
