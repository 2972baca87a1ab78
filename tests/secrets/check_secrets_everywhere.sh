#!/usr/bin/env bash
# Issue 18 D2/D12: secrets seeded through each panel adapter (a password the
# user gives, 3x-ui's secret base path) and those the panels make (setup
# tokens, one-time keys, TOTP secrets, generated passwords, read back from
# the adapters' 0600 files) appear in no output of the host: not on stdout or
# stderr of `stand run` and `stand compat`, not in JUnit or --json, not in
# any file of the run directory that is readable by others.
#   check_secrets_everywhere.sh STAND SCENARIO PLUGINS CONFIGS PANEL...
set -euo pipefail
stand=$1 scenario=$2 plugins=$3 configs=$4; shift 4
dir=$(mktemp -d /tmp/stand-secrets.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# Each panel's double config with a seeded password, on ports of this test.
python3 - "$configs" "$dir" "$(dirname "$0")/.." "$@" <<'PY'
import json, sys
configs, out, tests, panels = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
sys.path.insert(0, tests)
from relocate_ports import free_block
port = free_block(27600, 5 * len(panels))  # 27600.. unless something else holds one of them
for p in panels:
    c = json.load(open(f"{configs}/{p}.json"))
    c["password"] = f"Seeded-{p}-Pass-7f3a91"
    c["host"] = "127.0.0.1"  # an address is no secret: it must stay visible (issue 51)
    c["port"] = port
    if p == "3x-ui":
        c.update(web_base_path="/seeded-base-5c2e8d/", sub_port=port + 1, inbound_port=port + 2, xray_api_port=port + 3)
        if "xray_metrics_port" in c:  # the real 3x-ui's config (tests/real-panels)
            c["xray_metrics_port"] = port + 4
    port += 5
    json.dump(c, open(f"{out}/{p}.json", "w"))
PY
args=()
for p in "$@"; do args+=(--plugin "$p=@$dir/$p.json"); done
"$stand" run "$scenario" --run-dir "$dir/run" --plugin-path "$plugins" "${args[@]}" >"$dir/run.out" 2>&1 \
  || { cat "$dir/run.out"; echo "stand run failed"; exit 1; }
"$stand" report "$dir/run" >"$dir/report.out" 2>&1
"$stand" compat 3x-ui --config "@$dir/3x-ui.json" --plugin-path "$plugins" --run-dir "$dir/compat" \
  --junit "$dir/compat.xml" >"$dir/compat.out" 2>&1 || { cat "$dir/compat.out"; echo "stand compat failed"; exit 1; }
"$stand" compat 3x-ui --config "@$dir/3x-ui.json" --plugin-path "$plugins" --json >"$dir/compat.json" 2>&1 || true

python3 - "$dir" "$@" <<'PY'
import json, os, re, stat, sys
d, panels = sys.argv[1], sys.argv[2:]
secrets = {}
for p in panels:
    secrets[f"{p}: the given password"] = f"Seeded-{p}-Pass-7f3a91"
secrets["3x-ui: the secret base path"] = "/seeded-base-5c2e8d/"
# What the panels made, from the adapters' own 0600 files.
for root, _, files in os.walk(f"{d}/run/data"):
    for f in files:
        path = os.path.join(root, f)
        if not f.endswith(".json"):
            continue
        try:
            doc = json.load(open(path))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(doc, dict):
            for k in ("setup_token", "totp_secret", "password", "api_token", "token"):
                v = doc.get(k)
                if isinstance(v, str) and len(v) >= 8:
                    secrets[f"{os.path.relpath(path, d)}: {k}"] = v
# Subscription tokens: the path of each user's link, from the secrets-free
# side (the doubles' own state is not ours to read): the load's URLs must be
# redacted, so their paths must say <redacted>.
outputs = [f"{d}/{n}" for n in ("run.out", "report.out", "compat.out", "compat.xml", "compat.json")]
for root, _, files in os.walk(f"{d}/run"):
    for f in files:
        outputs.append(os.path.join(root, f))
found = []
def private(path):
    # Readable by its owner alone: the file, or a folder on its way below the
    # test's own folder (a 0700 data dir). The test's folder is 0700 itself
    # (mktemp): counting it made every output private and the check vacuous.
    while os.path.realpath(path) != os.path.realpath(d):
        if stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0:
            return True
        path = os.path.dirname(path)
    return False

checked = [p for p in outputs if not private(p)]  # private: where secrets that must stay belong
for path in checked:
    mode = stat.S_IMODE(os.stat(path).st_mode)
    data = open(path, "rb").read().decode("utf-8", "replace")
    for what, value in secrets.items():
        if value in data:
            found.append(f"{os.path.relpath(path, d)} (mode {mode:o}) holds {what}")
for must in ["run.out", "compat.xml", "run/run.json", "run/summary.md"] + [f"run/reps/{p}_r1.json" for p in panels]:
    if f"{d}/{must}" not in checked:
        found.append(f"{must} was not checked (missing or private): the check would prove nothing")
print(f"{len(secrets)} secrets checked in {len(checked)} outputs ({len(outputs) - len(checked)} private):",
      ", ".join(sorted(secrets)))
rep = json.load(open(f"{d}/run/reps/3x-ui_r1.json"))
urls = rep["loads"]["subs"]["urls"]
if not urls or not all("<redacted>" in u for u in urls):
    found.append(f"3x-ui's subscription URLs are not redacted in its repetition: {urls[:2]}")
calls = json.dumps(rep.get("http_calls", []))
if "<redacted>" not in calls:
    found.append("3x-ui's admin calls do not show the base path redacted")
# The address every config holds is no secret, whatever a plugin or a
# subscription's X-Forwarded-For header marked: it stays written where it is.
run = json.load(open(f"{d}/run/run.json"))
hosts = {p["id"]: p.get("config", {}).get("host") for p in run.get("plugins", []) if isinstance(p, dict)}
for p in panels:
    if hosts.get(p) != "127.0.0.1":
        found.append(f"run.json: {p}'s config host reads {hosts.get(p)!r}, not 127.0.0.1")
for path in outputs:
    if path.endswith((".json", ".md", ".csv", ".out", ".xml", ".html")) and path in checked:
        text = open(path, "rb").read().decode("utf-8", "replace")
        m = re.search(r'<redacted>:\d|<redacted>://|"(listen|host)": ?"<redacted>"', text)
        if m:
            found.append(f"{os.path.relpath(path, d)}: an address or scheme was redacted ({m.group(0)} in it)")
for f in found:
    print("LEAK:", f)
sys.exit(1 if found else 0)
PY
echo "ok: no secret in any output"
