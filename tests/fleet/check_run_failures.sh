#!/usr/bin/env bash
# stand run --host when things go wrong, on three real sshd hosts (rig.sh):
# - a host without this stand is refused before anything runs on any host
#   (exit 2, the host named, what to run);
# - a host killed mid-run (its sshd and everything in its namespace) costs
#   only its own repetitions: the other host's are all in the merged run,
#   the cause is named on stderr and in fleet.json, exit 1;
# - a scenario file and run directory with hostile names (spaces, quotes,
#   ';', $(), backquotes) run on a host as given, no shell reading them;
# - a dropped connection (sshd killed, the host's stand not) leaves the run
#   going on there, and `stand fleet collect` brings it back once it ended;
# - a host's stand killed (not its sshd) is reported as killed;
# - two runs whose directories share a name keep their own host directories;
# - Ctrl-C or a hangup to the process group (as a terminal sends it) reaches
#   every host: exit 130, and no stand process and no cgroup of the run is
#   left on any host.
#   check_run_failures.sh STAND SCENARIO FIXTURE_PLUGINS NET
set -uo pipefail
stand=$1 scenario=$2 plugins=$3 net=$4
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/stand-fleet-fail.XXXXXX)
cleanup() { "$here/rig.sh" down "$dir/rig" >/dev/null 2>&1; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/out "$dir"/err; do [[ -f $f ]] && { echo "--- $f"; tail -30 "$f"; }; done; exit 1; }
"$here/rig.sh" up "$dir/rig" 3 "$net" || fail "the rig did not come up"
tag=$(printf '%s' "$(realpath -m "$dir/rig")" | sha256sum | cut -c1-6)
ns_of() { echo "stfl$tag-$1"; }
h() { echo "--host h$1=ssh://root@$net.$((10 + $1))"; }
ssh_opts=(--ssh-config "$dir/rig/ssh_config")
"$stand" fleet push "h1=ssh://root@$net.11" "h2=ssh://root@$net.12" "${ssh_opts[@]}" --plugin-path "$plugins" \
  >"$dir/out" 2>"$dir/err" || fail "push failed"
# The stand processes in a host's namespace ("stand", after the launcher's exec).
stands_on() { for p in $(ip netns pids "$(ns_of "$1")" 2>/dev/null); do [[ $(cat /proc/$p/comm 2>/dev/null) == stand ]] && echo "$p"; done; }
run() { # run RUN_DIR HOST_NUMBERS...: in the background, pid in $run_pid
  local run_dir=$1; shift
  local args=(); for i in "$@"; do args+=($(h "$i")); done
  "$stand" run "$scenario" --run-dir "$run_dir" "${args[@]}" "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err" &
  run_pid=$!
}
wait_for() { # wait_for SECONDS COMMAND...: until COMMAND succeeds
  local end=$((SECONDS + $1)); shift
  until "$@"; do ((SECONDS < end)) || return 1; sleep 0.1; done
}

# --- a host without stand: refused before anything runs anywhere
run "$dir/refused" 1 2 3
wait $run_pid; code=$?
[[ $code == 2 ]] || fail "a run with a host lacking stand exited $code, not 2"
grep -q "refused before anything ran" "$dir/err" && grep -q "h3" "$dir/err" && grep -q "stand fleet push" "$dir/err" ||
  fail "the refusal does not name the host and what to run"
[[ -e $dir/rig/home_1/.stand/runs || -e $dir/rig/home_2/.stand/runs ]] && fail "something ran on a host after a refusal"
"$stand" run --check "$scenario" $(h 1) $(h 3) "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err"
[[ $? == 2 ]] && grep -q "h3" "$dir/err" || fail "run --check did not refuse the host lacking stand"
"$stand" run --check "$scenario" $(h 1) $(h 2) "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err" ||
  fail "run --check refused pushed hosts"
[[ $(grep -c "^host h[12] .*: ok" "$dir/out") == 2 ]] || fail "run --check does not say each host is ok"
echo "ok: a host without stand refused before anything ran (exit 2), by run --check too"

# --- h2 killed after its first repetition: only its repetitions are lost.
# The hosts come from the scenario's "hosts" this time (each host runs its
# copy of the scenario alone, not on the hosts again).
sed "s|\"name\": \"slow\",|\"name\": \"slow\", \"hosts\": {\"h1\": \"ssh://root@$net.11\", \"h2\": \"ssh://root@$net.12\"},|" \
  "$scenario" >"$dir/slow-hosts.json"
grep -q '"hosts"' "$dir/slow-hosts.json" || fail "could not add hosts to the scenario"
scenario=$dir/slow-hosts.json run "$dir/killed"
# A host's run directory is ~/.stand/runs/<run id>/run, a new id per run.
first_done() { grep -qs '"status":"ok"' "$dir"/rig/home_2/.stand/runs/*/run/reps/fixture-flaky_r1.json; }
wait_for 60 first_done || fail "h2's first repetition did not finish"
for p in $(ip netns pids "$(ns_of 2)"); do kill -9 "$p"; done
wait_for 120 bash -c "! kill -0 $run_pid 2>/dev/null" || fail "the run did not end after h2 was killed"
wait $run_pid; code=$?
[[ $code == 1 ]] || fail "a run with a killed host exited $code, not 1"
grep -q "^stand: host h2 .*the connection was lost" "$dir/err" || fail "h2's failure and its cause are not named"
grep "^stand: host h2" "$dir/err"
grep -q "^stand: host h1" "$dir/err" && fail "h1 reported a problem"
python3 - "$dir/killed" <<'PY' || fail "the merged run is not as expected"
import json, sys
run = sys.argv[1]
reps = json.load(open(f"{run}/results.json"))["reps"]
h1 = [r for r in reps if r["key"].startswith("h1.")]
assert len(h1) == 4 and all(r["status"] == "ok" for r in h1), [(r["key"], r["status"]) for r in reps]
assert all(r["plugin"] == "h1/fixture-flaky" for r in h1), h1[0]["plugin"]
hosts = {h["name"]: h for h in json.load(open(f"{run}/fleet.json"))["hosts"]}
assert hosts["h1"]["problem"] == "" and hosts["h1"]["exit_code"] == 0, hosts["h1"]
assert hosts["h2"]["problem"] != "", hosts["h2"]
print("h2 in fleet.json:", hosts["h2"]["problem"])
PY
grep -q "on 2 host(s)" "$dir/err" && ! grep -q "^\[h1\] stand run slow on" "$dir/err" ||
  fail "the scenario's hosts were not used once, by the controller alone"
echo "ok: h2 killed mid-run cost only its repetitions (h1: 4 of 4 ok, exit 1, cause named); hosts from the scenario"

# --- h2's connection dropped (its sshd killed, its stand not): the run
# goes on there; `stand fleet collect` says so while it does, and once it
# has ended copies it back: nothing it measured is lost. (h2 alone, so that
# the controller's run ends while h2's goes on.)
"$here/rig.sh" restart-sshd "$dir/rig" 2 || fail "h2's sshd did not start again"
rm -rf "$dir"/rig/home_2/.stand/runs/*  # the killed run's, so that first_done sees this run's
run "$dir/dropped" 2
wait_for 60 first_done || fail "h2's first repetition did not finish (dropped)"
for p in $(ip netns pids "$(ns_of 2)"); do [[ $(cat /proc/$p/comm 2>/dev/null) == sshd ]] && kill -9 "$p"; done
wait_for 120 bash -c "! kill -0 $run_pid 2>/dev/null" || fail "the run did not end after h2's connection dropped"
wait $run_pid; code=$?
[[ $code == 1 ]] || fail "a run whose connection to h2 dropped exited $code, not 1"
grep -q "no host's run came back" "$dir/err" || fail "the run does not say that nothing came back"
[[ -n $(stands_on 2) ]] || fail "h2's stand did not go on after its connection dropped"
"$here/rig.sh" restart-sshd "$dir/rig" 2 || fail "h2's sshd did not start again"
before=$(stands_on 2)
"$stand" fleet collect "$dir/dropped" "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err"; code=$?
if [[ -n $before && -n $(stands_on 2) ]]; then
  [[ $code == 1 ]] && grep -q "h2: its run still goes on there" "$dir/err" || fail "collect did not say h2 still runs"
  echo "ok: collect while h2's run went on: exit 1, $(cat "$dir/err")"
fi
wait_for 60 bash -c "[[ -z \$(ip netns pids $(ns_of 2) | xargs -r -I{} cat /proc/{}/comm 2>/dev/null | grep -x stand) ]]" ||
  fail "h2's stand did not end"
"$stand" fleet collect "$dir/dropped" "${ssh_opts[@]}" >"$dir/out" 2>"$dir/err" || fail "collect failed"
grep -q "^h2: collected into" "$dir/out" || fail "collect does not say what it did"
python3 - "$dir/dropped" <<'PY2' || fail "the collected run is not complete"
import json, sys
run = sys.argv[1]
reps = json.load(open(f"{run}/results.json"))["reps"]
assert len(reps) == 4 and all(r["status"] == "ok" for r in reps), [(r["key"], r["status"]) for r in reps]
assert {r["key"].split(".")[0] for r in reps} == {"h2"}
hosts = {h["name"]: h for h in json.load(open(f"{run}/fleet.json"))["hosts"]}
assert hosts["h2"]["run_dir"] == "hosts/h2" and "collected" in hosts["h2"]["problem"], hosts["h2"]
PY2
grep -q "h2/fixture-flaky" "$dir/dropped/summary.md" || fail "the report lacks h2's line"
echo "ok: h2's connection dropped: its run went on there, and stand fleet collect brought all 4 repetitions back"

# --- h2's stand killed (SIGKILL), its sshd not: reported as killed, not as a
# lost connection.
rm -rf "$dir"/rig/home_2/.stand/runs/*
run "$dir/stand-killed" 2
wait_for 60 first_done || fail "h2's first repetition did not finish (stand killed)"
for p in $(stands_on 2); do kill -9 "$p"; done
wait_for 60 bash -c "! kill -0 $run_pid 2>/dev/null" || fail "the run did not end after h2's stand was killed"
wait $run_pid; code=$?
[[ $code == 1 ]] || fail "a run whose host's stand was killed exited $code, not 1"
grep -q "^stand: host h2: its stand was killed" "$dir/err" || fail "h2's killed stand was not reported as killed"
grep -q "connection was lost" "$dir/err" && fail "h2's killed stand was reported as a lost connection"
echo "ok: h2's stand killed: $(grep '^stand: host h2' "$dir/err" | head -1)"

# --- hostile names: a scenario file and a run directory whose names hold
# spaces, quotes, ';' and $(): they reach the host's shell only quoted.
# Were one run by a shell, it would make pwned or pwned2 in the host's home.
evil="a b'c\";d\$(touch pwned)\`touch pwned2\`"
mkdir -p "$dir/$evil"
cp "$scenario" "$dir/$evil/$evil.json"
"$stand" run "$dir/$evil/$evil.json" --run-dir "$dir/$evil/run $evil" $(h 1) "${ssh_opts[@]}" --plugin-path "$plugins" \
  >"$dir/out" 2>"$dir/err" || { cat "$dir/err"; fail "a run with hostile names failed"; }
[[ -z $(find "$dir" -name 'pwned*') ]] || fail "a hostile name was run by a shell"
[[ -f "$dir/$evil/run $evil/hosts/h1/results.json" ]] || fail "the host's run did not come back under the hostile name"
echo "ok: hostile file and run names (spaces, quotes, ';', \$(), backquotes) reach the host quoted"

# --- two runs whose directories share a name (a/same, b/same): each has its
# own directory on the host (named by its run id), so neither returns the
# other's repetitions.
mkdir -p "$dir/a" "$dir/b"
tick=$(mktemp "$dir/tick.XXXX.json")
sed 's/"sleep_ms": 2000/"sleep_ms": 100/; s/"repetitions": 4/"repetitions": 1/' "$scenario" >"$tick"
"$stand" run "$tick" --run-dir "$dir/a/same" $(h 1) "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err" ||
  fail "run a/same failed"
sed 's/"sleep_ms": 100/"sleep_ms": 300/' "$tick" >"$tick.b"
"$stand" run "$tick.b" --run-dir "$dir/b/same" $(h 1) "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err" ||
  fail "run b/same failed"
python3 - "$dir/a/same" "$dir/b/same" <<'PY3' || fail "two runs named alike shared a host directory"
import json, re, sys
dirs = []
for run, want in zip(sys.argv[1:], (100, 300)):
    reps = json.load(open(f"{run}/results.json"))["reps"]
    assert len(reps) == 1, [r["key"] for r in reps]
    slept = reps[0]["metrics"]["tick.slept_ms"]
    assert want <= slept < want + 100, (run, slept)
    remote = json.load(open(f"{run}/fleet.json"))["hosts"][0]["remote_run_dir"]
    assert re.fullmatch(r"\.stand/runs/\d{8}-\d{6}-[0-9a-f]{16}/run", remote), remote
    dirs.append(remote)
assert dirs[0] != dirs[1], dirs
PY3
echo "ok: a/same and b/same ran in their own host directories (by run id), each with its own repetitions"

# --- Ctrl-C (and a hangup) on h1 and h3 (h3 pushed now), sent to the whole
# process group as a terminal does (stand's ssh children too): exit 130,
# nothing left on either host.
"$stand" fleet push "h3=ssh://root@$net.13" "${ssh_opts[@]}" --plugin-path "$plugins" >/dev/null 2>&1 || fail "push to h3 failed"
for sig in INT HUP; do
  set -m  # the run in a process group of its own, as a terminal's job
  run "$dir/interrupted-$sig" 1 3
  set +m
  running() { [[ -n $(stands_on 1) && -n $(stands_on 3) ]]; }
  wait_for 60 running || fail "stand did not start on h1 and h3"
  sleep 1
  remote_pids="$(stands_on 1) $(stands_on 3)"
  start=$SECONDS
  kill -$sig -- -$run_pid
  wait_for 20 bash -c "! kill -0 $run_pid 2>/dev/null" || fail "the run did not end within 20 s of SIG$sig"
  wait $run_pid; code=$?
  echo "SIG$sig to the group: exit $code after $((SECONDS - start)) s"
  [[ $code == 130 ]] || fail "a fleet run given SIG$sig exited $code, not 130"
  grep -q "connection was lost" "$dir/err" && fail "SIG$sig was taken for a lost connection"
  no_stands() { [[ -z $(stands_on 1; stands_on 3) ]]; }
  wait_for 10 no_stands || fail "stand processes left on the hosts after SIG$sig: $(stands_on 1; stands_on 3)"
  for p in $remote_pids; do
    g=$(find /sys/fs/cgroup -type d -path "*/stand/*.$p.*" 2>/dev/null)
    [[ -z $g ]] || fail "a cgroup of the remote stand $p was left: $g"
  done
  grep -q "^\[h1\] " "$dir/err" && grep -q "^\[h3\] " "$dir/err" || fail "the hosts' lines are not prefixed with their names"
  # A run on hosts is not resumed: no host's "finish with: stand run --resume" that the controller would refuse.
  grep -q "finish with: stand run --resume" "$dir/err" && fail "a host's advice to resume there was relayed: $(grep -- --resume "$dir/err")"
  grep -q "a run on hosts is not resumed: run it again" "$dir/err" || fail "the controller did not say how to finish"
  echo "ok: SIG$sig to the process group reached both hosts (exit 130), no stand process or cgroup left"
done
