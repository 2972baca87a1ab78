#!/usr/bin/env bash
# Prepares the real PasarGuard panel from its published source, run by hand
# (not by CI: it needs a snapshot of the panel's git repository and fetches
# Debian unstable packages and PyPI wheels). Lays out OUT as the panel's own
# non-docker install (install_service.sh: a checkout with `uv sync`'s .venv):
#   OUT/src                the source at TAG (stand's `source_dir`)
#   OUT/src/.venv          the locked requirements (uv.lock), Python 3.14
#                          (stand's default `python`: source_dir/.venv/bin/python3)
#   OUT/python-root        Debian unstable's python3.14 and the glibc it needs
#                          (sdk/tools/newer_python.sh, the SDK's recipe for any panel
#                          needing a newer Python)
#   OUT/pasarguard-plugin.json  the plugin config: `stand run --plugin pasarguard=@FILE`
#   OUT/pasarguard.json    a `stand compat pasarguard --target-config` file (the same
#                          config under "config", with the compat checks' keys)
#   ./prepare_pasarguard.sh OUT GIT_DIR [TAG] [PORT]
# GIT_DIR: a clone or bare snapshot of github.com/PasarGuard/panel holding TAG
# (default v5.2.1). PORT (default 25410) goes into both JSON files.
#
# Why each step (see tests/real-panels/pasarguard-from-source.md):
# - pyproject.toml wants Python >= 3.14 and the code uses PEP 758 syntax;
#   Debian 12 has 3.11, so sdk/tools/newer_python.sh unpacks sid's python3.14 .debs into
#   a private root with sid's glibc, and patchelf points the binary at that loader;
# - asyncmy (MySQL only) has no cp314 wheel, so it is left out;
# - the dashboard is built with bun at start-up when dashboard/build is
#   missing; bun is not installable here, so a one-page stub stands in (only
#   the web UI is lost: the API, the subscription pages and /health are real).
set -euo pipefail

out=${1:?usage: prepare_pasarguard.sh OUT GIT_DIR [TAG] [PORT]}
git_dir=${2:?usage: prepare_pasarguard.sh OUT GIT_DIR [TAG] [PORT]}
tag=${3:-v5.2.1}
port=${4:-25410}
case $out in /*) ;; *) out="$(pwd)/$out" ;; esac
mkdir -p "$out"
say() { echo "==> $*" >&2; }
die() { echo "prepare_pasarguard.sh: $*" >&2; exit 1; }

# 1. The source at TAG.
src=$out/src
if [[ ! -f $src/.stand-tag ]] || [[ $(cat "$src/.stand-tag") != "$tag" ]]; then
  say "source $tag from $git_dir"
  git --git-dir="$git_dir" rev-parse -q --verify "$tag^{commit}" >/dev/null || \
    git -C "$git_dir" rev-parse -q --verify "$tag^{commit}" >/dev/null || die "$git_dir has no tag $tag"
  rm -rf "$src"; mkdir -p "$src"
  if [[ -d $git_dir/.git ]]; then git -C "$git_dir" archive "$tag" | tar -x -C "$src"
  else git --git-dir="$git_dir" archive "$tag" | tar -x -C "$src"; fi
  echo "$tag" > "$src/.stand-tag"
fi

# 2. Python 3.14 from Debian unstable in a private root, and the venv the
# panel's install_service.sh expects (src/.venv) with the locked requirements.
venv=$src/.venv
if ! [[ -f $venv/.stand-complete ]]; then
  rm -rf "$venv"
  python=$("$(dirname "$0")/../../sdk/tools/newer_python.sh" 3.14 "$out/python-root" "$venv")
  say "venv with $tag's uv.lock (PyPI wheels)"
  "$python" -m pip install --quiet --upgrade pip uv >&2
  (cd "$src" && "$venv/bin/uv" export --frozen --no-dev --no-hashes --no-emit-project -o "$out/requirements.lock.txt" >&2)
  grep -E '^[a-zA-Z]' "$out/requirements.lock.txt" | grep -vE "sys_platform == 'win32'|^pip==" | sed 's/ ;.*//' \
    | grep -v '^asyncmy' > "$out/requirements.install.txt"
  "$python" -m pip install --quiet --no-deps -r "$out/requirements.install.txt" >&2
  touch "$venv/.stand-complete"
fi

# 3. The dashboard stub (bun is not installable here).
if ! [[ -f $src/dashboard/build/index.html ]]; then
  mkdir -p "$src/dashboard/build/statics"
  echo '<!DOCTYPE html><html><head><title>PasarGuard dashboard (not built)</title></head><body></body></html>' \
    > "$src/dashboard/build/index.html"
fi

# 4. The plugin config (`stand run ... --plugin pasarguard=@OUT/pasarguard-plugin.json`):
# the adapter's own native lifecycle, nothing else; and the compat target,
# which wraps the same config under "config" beside the checks' own keys.
cat > "$out/pasarguard-plugin.json" <<EOF
{
  "mode": "native",
  "source_dir": "$src",
  "port": $port
}
EOF
{
  printf '{\n  "config": '
  sed '1!s/^/  /; $s/$/,/' "$out/pasarguard-plugin.json"
  cat <<'EOF'
  "wrong_credentials": {"password": "Nope-Wrong-Pass-12"},
  "users": 5,
  "ready_timeout_s": 120,
  "check_timeout_s": 300,
  "unserved_links": "panel only: the host's address names no node (node1.bench.test), nothing serves the links"
}
EOF
} > "$out/pasarguard.json"
say "ready: stand compat pasarguard --target-config $out/pasarguard.json"
say "       stand run SCENARIO --plugin pasarguard=@$out/pasarguard-plugin.json"
