#!/usr/bin/env bash
# Records the exchanges of the compat flow against a real panel, run by hand
# where the panel is available (see CONTRIBUTING.md, "Holding a double to a
# real panel"):
#   tests/real-panels/record.sh PLUGIN TARGET_CONFIG OUT_DIR [VERSION [NOTE]]
# e.g.
#   tests/real-panels/record.sh 3x-ui /tmp/xui-real.json tests/data/real-panels/3x-ui-3.6.0 \
#       3.6.0 "x-ui v3.6.0 + Xray 26.7.28"
# runs `stand compat PLUGIN --target-config TARGET_CONFIG --record ...` and
# writes OUT_DIR/recording.json: panel, version (the plugin's facts
# "versions"[PLUGIN] when it reports one, else VERSION), origin "recorded",
# how (this command, the date, the facts' versions or NOTE) and the exchanges.
# STAND (default build/bin/stand) and STAND_PLUGIN_PATH (default
# build/plugins) name the build to use. Every check must pass, except those
# named in EXPECTED_FAILURES ("CHECK_ID=why;CHECK_ID=why": a real panel that
# honestly fails a check, e.g. one that cannot bind a single address); the
# recording's "how" names them with the reason.
set -euo pipefail

usage="usage: record.sh PLUGIN TARGET_CONFIG OUT_DIR [VERSION [NOTE]]"
plugin=${1:?$usage} target=${2:?$usage} out_dir=${3:?$usage}
version=${4:-} note=${5:-}
repo=$(cd "$(dirname "$0")/../.." && pwd)
stand=${STAND:-$repo/build/bin/stand}
plugins=${STAND_PLUGIN_PATH:-$repo/build/plugins}

[[ -x $stand ]] || { echo "record.sh: no stand binary at $stand (build it, or set STAND)" >&2; exit 2; }
[[ -f $target ]] || { echo "record.sh: no target config at $target" >&2; exit 2; }
mkdir -p "$out_dir"
raw=$(mktemp /tmp/stand-record.XXXXXX.json)
junit=$(mktemp /tmp/stand-record.XXXXXX.xml)
trap 'rm -f "$raw" "$junit"' EXIT

status=0
"$stand" compat "$plugin" --plugin-path "$plugins" --target-config "$target" --record "$raw" --junit "$junit" || status=$?
if [[ ! -s $raw ]]; then
  echo "record.sh: stand compat wrote no recording (exit $status)" >&2
  exit 1
fi
expected_note=""
if [[ $status -ne 0 ]]; then
  expected_note=$(python3 - "$junit" "$status" "${EXPECTED_FAILURES:-}" <<'PY'
import sys, xml.etree.ElementTree as ET
junit, status, spec = sys.argv[1:]
allowed = dict(item.split("=", 1) for item in spec.split(";") if "=" in item)
failed = [c.get("name") for c in ET.parse(junit).iter("testcase")
          if c.find("failure") is not None or c.find("error") is not None]
unexpected = [f for f in failed if f not in allowed]
if status != "1" or not failed or unexpected:
    sys.exit(f"record.sh: stand compat exited {status}; failed: {', '.join(unexpected or failed) or 'none named'}: "
             "the recording holds a partial flow; fix the target config or the adapter and record again "
             "(or name an honest failure in EXPECTED_FAILURES)")
print("; ".join(f"{f} failed as expected: {allowed[f]}" for f in failed))
PY
  ) || exit 1
fi

python3 - "$raw" "$out_dir/recording.json" "$plugin" "$(basename "$target")" "$version" "$note" "$expected_note" <<'PY'
import datetime, json, sys
raw, out, plugin, target, version_arg, note, expected = sys.argv[1:]
doc = json.load(open(raw, encoding="utf-8"))
versions = doc.get("versions", {})
version = versions.get(plugin) or version_arg
if not version:
    sys.exit(f"record.sh: {plugin} reports no facts versions[{plugin!r}]: give VERSION as the 4th argument")
seen = " + ".join(f"{name} {v}" for name, v in sorted(versions.items()))
how = ", ".join(x for x in (f"tests/real-panels/record.sh {plugin} {target}",
                            datetime.date.today().isoformat(), seen or note) if x)
if seen and note:
    how += f", {note}"
if expected:
    how += f"; {expected}"
recording = {"panel": doc["panel"], "version": version, "origin": "recorded", "how": how,
             "exchanges": doc["exchanges"]}
with open(out, "w", encoding="utf-8") as f:
    json.dump(recording, f, indent=2)
    f.write("\n")
print(f"record.sh: {len(recording['exchanges'])} exchanges of {plugin} {version} written to {out}")
PY
