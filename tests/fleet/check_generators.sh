#!/usr/bin/env bash
# One load from two generator hosts (rig.sh: three network namespaces; the
# box, `stand backend`, on h1's address; generators h2 and h3): both start
# together, each sends half the rate, the merged histogram is exactly the
# union of the two (slot by slot; count and percentiles), the counters and
# per-second series add up to what the box answered. The load-target rule:
# a declared host's address is allowed, any other refused before anything
# is sent; a generator without this stand is refused before anything runs.
# Declared link conditions (--link): a rate cap holds the load to it, a
# 50 ms RTT is in the latency histogram (netem, or stand's delay line where
# the kernel has none), the RTT is measured back first, an interface with
# its own qdisc is refused, and nothing is left on any host.
#   check_generators.sh STAND PLUGINS NET
set -uo pipefail
stand=$1 plugins=$2 net=$3
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/stand-fleet-gen.XXXXXX)
backend_pid=
cleanup() {
  [[ -n $backend_pid ]] && kill "$backend_pid" 2>/dev/null
  "$here/rig.sh" down "$dir/rig" >/dev/null 2>&1; rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/out "$dir"/err "$dir"/backend.out; do [[ -f $f ]] && { echo "--- $f"; cat "$f"; }; done; exit 1; }
"$here/rig.sh" up "$dir/rig" 3 "$net" || fail "the rig did not come up"
box="box=ssh://root@$net.11" g2="g2=ssh://root@$net.12" g3="g3=ssh://root@$net.13"
ssh_opts=(--ssh-config "$dir/rig/ssh_config")
"$stand" fleet push "$g2" "$g3" "${ssh_opts[@]}" --plugin-path "$plugins" >"$dir/out" 2>"$dir/err" || fail "push failed"

"$here/rig.sh" exec "$dir/rig" 1 "$stand" backend --listen "$net.11:18500" --control "$net.11:18501" --allow-remote \
  >"$dir/backend.out" 2>&1 &
backend_pid=$!
for _ in $(seq 50); do grep -q '"listen"' "$dir/backend.out" && break; sleep 0.1; done
grep -q '"listen"' "$dir/backend.out" || fail "the backend did not start on h1"
served() { python3 -c "import json,urllib.request; print(json.load(urllib.request.urlopen('http://$net.11:18501/stats'))['requests'])"; }
load() { "$stand" load "$@" >"$dir/out" 2>"$dir/err"; }

# The rule: a declared host's address only.
load "http://$net.11:18500/" -d 1s
[[ $? == 2 ]] && grep -q "refusing non-local target 'http://$net.11:18500/'" "$dir/err" || fail "an undeclared address was not refused"
load "http://$net.11:18500/" --host "$box" -d 1s -c 2 -t 1 || fail "a declared host's address was refused from here"
load "http://$net.99:18500/" --host "$box" --generator "$g2" "${ssh_opts[@]}" -d 1s
[[ $? == 2 ]] && grep -q "refusing non-local target 'http://$net.99:18500/'" "$dir/err" || fail "generators: an undeclared target was not refused"
before=$(served)
load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "g1=ssh://root@$net.11" "${ssh_opts[@]}" -d 1s
[[ $? == 2 ]] && grep -q "a generator cannot be used, nothing was sent" "$dir/err" && grep -q "stand fleet push" "$dir/err" ||
  fail "a generator without this stand was not refused"
echo "http://$net.11:18500/" >"$dir/urls"
load --urls "$dir/urls" --host "$box" --generator "$g2" "${ssh_opts[@]}" -d 1s
[[ $? == 2 ]] && grep -q -- "--urls with --generator" "$dir/err" || fail "--urls with generators was not refused"
[[ $(served) == "$before" ]] || fail "a refused load sent requests"

# Two generators, 400/s in all for 3 s.
load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "$g3" "${ssh_opts[@]}" \
  --rate 400 -d 3s -c 16 -t 1 -H "Authorization: Bearer gen-secret-4f1" --json --histogram-out "$dir/merged.json" ||
  fail "the load from two generators failed (exit $?)"
cp "$dir/out" "$dir/load.json"
after=$(served)
"$stand" load --merge-histograms "$dir/merged.g2.json" "$dir/merged.g3.json" --json >"$dir/remerged.json" ||
  fail "the generators' histogram files do not merge"
python3 - "$dir" "$((after - before))" <<'PY' || fail "the merged load is not the union of the generators'"
import json, sys
d, served = sys.argv[1], int(sys.argv[2])
out = json.load(open(f"{d}/load.json"))
assert out["schema"] == "stand.load-fleet/1", out["schema"]
gens = {g["name"]: g for g in out["generators"]}
assert sorted(gens) == ["g2", "g3"], gens.keys()
m = out["merged"]
for name, g in gens.items():
    assert g["problem"] == "" and g["exit_code"] == 0, (name, g["problem"])
    assert abs(g["rate"] - 200) < 1e-6 and g["result"]["rate"] == 200, (name, g["rate"])
    assert g["result"]["start"]["late_us"] < 100_000, (name, g["result"]["start"])
    assert "cpu" in g["result"] and "generator_saturated" in g["result"], name
completed = sum(g["result"]["requests"]["completed"] for g in gens.values())
assert m["generators"] == 2 and m["requests"]["completed"] == completed, (m["requests"], completed)
assert completed == served, f"the box answered {served}, the generators say {completed}"
assert 1100 <= completed <= 1300, completed
assert sum(m["per_second"]["completed"]) == completed, m["per_second"]
assert m["latency_us"]["all"]["count"] == completed, m["latency_us"]["all"]
assert out["start"]["spread_us"] < 50_000, out["start"]
# Slot by slot: the merged file is the two generators' files added.
def slots(f, kind="latency", cls="all"):
    h = json.load(open(f))[kind][cls]
    return h, {i: c for i, c in h["slots"]}
for kind in ("latency", "service"):
    merged, ms = slots(f"{d}/merged.json", kind)
    (a, sa), (b, sb) = slots(f"{d}/merged.g2.json", kind), slots(f"{d}/merged.g3.json", kind)
    union = {i: sa.get(i, 0) + sb.get(i, 0) for i in set(sa) | set(sb)}
    assert ms == union, f"{kind}: merged slots differ from the union"
    assert merged["total"] == a["total"] + b["total"] and merged["min"] == min(a["min"], b["min"]) \
        and merged["max"] == max(a["max"], b["max"]), kind
# The percentiles printed are those of the union.
re = json.load(open(f"{d}/remerged.json"))["latency"]["all"]
for key in ("count", "p50", "p90", "p99", "p99_9", "max"):
    assert m["latency_us"]["all"][key] == re[key], (key, m["latency_us"]["all"][key], re[key])
print(f"ok: {completed} requests from 2 generators = {served} served; p50 {re['p50']} us, p99 {re['p99']} us;"
      f" starts {out['start']['spread_us']} us apart")
PY
load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "$g3" "${ssh_opts[@]}" \
  -d 1s -c 4 -t 1 -H "Authorization: Bearer gen-secret-4f1" || fail "the closed-model load from two generators failed"
cat "$dir/out"
grep -qE "^  g2: [0-9.]+ responses/s, sent [0-9]+, errors 0, its CPU [0-9.]+ % of its threads" "$dir/out" &&
  grep -q "^merged (2 generators; histograms merged slot by slot):" "$dir/out" &&
  grep -qE "^  latency: count [0-9]+, p50 [0-9.]+ ms" "$dir/out" || fail "the text output is not as documented"
grep -rq "gen-secret-4f1" "$dir/out" "$dir/err" && fail "a header value reached the output"
ps -eo args | grep -v grep | grep -q "gen-secret-4f1" && fail "a header value is on a command line"
for i in 2 3; do
  [[ -z $(ls -A "$dir/rig/home_$i/.stand/loads" 2>/dev/null) ]] || fail "host h$i kept its load files"
done
# Declared conditions. A rate cap (tbf) on both generators' links, the
# requests' direction: a closed-model load is held to it, and the RTT
# measured before it starts is written next to the numbers.
load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "$g3" "${ssh_opts[@]}" \
  -d 2s -c 4 -t 1 --link rate=80kbit --json || fail "the load over an 80 kbit/s link failed"
python3 - "$dir/out" <<'PY' || fail "the rate cap is not in the numbers"
import json, sys
out = json.load(open(sys.argv[1]))
for g in out["generators"]:
    net, r = g["net"], g["result"]
    assert net["planned"]["rate_bits"] == 80000 and net["as_planned"] and net["removed"] and net["interface"] == "eth0", net
    assert net["rtt_before_us"] < 5000 and net["rtt_measured_us"] < 5000, net
    # 80 kbit/s is 10 KB/s: a request is about 140 bytes on the wire, and ACKs go that way too
    assert 10 < r["throughput"]["requests_per_s"] < 110, (g["name"], r["throughput"])
print("ok: 80 kbit/s:", [round(g["result"]["throughput"]["requests_per_s"]) for g in out["generators"]], "requests/s")
PY
for i in 2 3; do
  "$here/rig.sh" exec "$dir/rig" "$i" tc qdisc show dev eth0 root | grep -qE "tbf|netem" && fail "h$i kept its qdisc"
done
# 50 ms RTT, in the latency histogram: netem where the kernel has it, else
# (this machine kind's: CONFIG_NET_SCH_NETEM is not set) stand's own delay
# line, which the output names; either way measured back before the load,
# and gone after it (no qdisc, TUN device or route left on a host).
load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "$g3" "${ssh_opts[@]}" \
  --rate 100 -d 2s -c 16 -t 1 --link rtt=50ms --json || fail "the load over a 50 ms link failed"
python3 - "$dir/out" <<'PY' || fail "the 50 ms RTT is not in the numbers"
import json, sys
out = json.load(open(sys.argv[1]))
for g in out["generators"]:
    net = g["net"]
    assert net["planned"]["rtt_us"] == 50000 and net["as_planned"] and net["removed"], (g["name"], net)
    assert 50000 <= net["rtt_measured_us"] < 60000 and net["rtt_before_us"] < 5000, (g["name"], net)
    assert g["result"]["latency_us"]["all"]["p50"] >= 50000, (g["name"], g["result"]["latency_us"]["all"])
    assert net["applied_with"] in ("netem", "stand delay line"), net["applied_with"]
    if net["applied_with"] == "stand delay line":
        c = net["delay_line"]
        assert c["forwarded"] >= 100 and c["lost"] == 0 and c["overflow"] == 0 and c["send_failed"] == 0, c
p50 = out["merged"]["latency_us"]["all"]["p50"]
assert p50 >= 50000, p50
assert not any("not as declared" in w for w in out["warnings"]), out["warnings"]
print(f"ok: merged p50 {p50} us over a 50 ms link ({out['generators'][0]['net']['applied_with']})")
PY
# Jitter and loss through the same path, the text output naming it.
load "http://$net.11:18500/" --host "$box" --generator "$g2" "${ssh_opts[@]}" \
  -d 2s -c 4 -t 1 --link rtt=20ms,jitter=5ms,loss=1% || fail "the load over a 20±5 ms, 1 % loss link failed"
grep -qE "^    --link on eth0 \((netem|stand delay line)\): planned RTT 20.00 ms, measured (1[5-9]|2[0-9])\.[0-9]+ ms" "$dir/out" ||
  fail "the text output does not name the link and its RTT"
for i in 2 3; do
  "$here/rig.sh" exec "$dir/rig" "$i" tc qdisc show dev eth0 root | grep -qE "tbf|netem" && fail "h$i kept its qdisc"
  "$here/rig.sh" exec "$dir/rig" "$i" ip -o link | grep -q stdl && fail "h$i kept the delay line's device"
  "$here/rig.sh" exec "$dir/rig" "$i" ip route | grep -q "^$net.11 " && fail "h$i kept a route to the box"
done
# An interface with a qdisc of its own is refused, never replaced.
"$here/rig.sh" exec "$dir/rig" 3 tc qdisc add dev eth0 root tbf rate 1gbit burst 64kb latency 10ms
before=$(served)
load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "$g3" "${ssh_opts[@]}" \
  --rate 100 -d 1s --link rate=1mbit
[[ $? == 2 ]] && grep -q "could not be made ready, nothing was sent" "$dir/err" &&
  grep -q "host g3: --link on eth0: it has a qdisc of its own (tbf), which stand does not replace" "$dir/err" ||
  fail "a host's own qdisc was not refused by name"
[[ $(served) == "$before" ]] || fail "a load refused for its netem sent requests"
"$here/rig.sh" exec "$dir/rig" 2 tc qdisc show dev eth0 root | grep -q tbf && fail "h2 kept its qdisc after the refusal"
"$here/rig.sh" exec "$dir/rig" 3 tc qdisc show dev eth0 root | grep -q tbf || fail "h3's own qdisc was replaced"
load "http://$net.11:18500/" --host "$box" --generator "$g2" "${ssh_opts[@]}" --link rtt=50ms,loss=2
[[ $? == 2 ]] && grep -q "link loss: expected a percentage" "$dir/err" || fail "a malformed --link was not refused"
"$here/rig.sh" exec "$dir/rig" 3 tc qdisc del dev eth0 root

# Ctrl-C to the process group (as a terminal sends it: stand's ssh children
# get it too): the generators stop within about a second, exit 130.
set -m
"$stand" load "http://$net.11:18500/" --host "$box" --generator "$g2" --generator "$g3" "${ssh_opts[@]}" \
  --rate 200 -d 30s -c 4 -t 1 >"$dir/out" 2>"$dir/err" &
pid=$!
set +m
sleep 4
kill -INT -- -$pid
start=$SECONDS
wait $pid; code=$?
echo "SIGINT to the group: exit $code after $((SECONDS - start)) s"
[[ $code == 130 ]] || fail "Ctrl-C of a generator load exited $code, not 130"
grep -q "connection was lost" "$dir/err" && fail "Ctrl-C was taken for a lost connection"
sleep 1
stopped=$(served); sleep 2
[[ $(served) == "$stopped" ]] || fail "the generators went on loading the box after Ctrl-C ($stopped, then $(served))"
echo "ok: generators merged exactly; targets refused unless declared; --link conditions applied and taken off; Ctrl-C stops them"
