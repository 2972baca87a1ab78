#!/usr/bin/env bash
# Prepares the real PasarGuard panel from its published source, run by hand
# (not by CI: it needs a snapshot of the panel's git repository and fetches
# Debian unstable packages and PyPI wheels). Lays out OUT as the panel's own
# non-docker install (install_service.sh: a checkout with `uv sync`'s .venv):
#   OUT/src                the source at TAG (stand's `source_dir`)
#   OUT/src/.venv          the locked requirements (uv.lock), Python 3.14
#                          (stand's default `python`: source_dir/.venv/bin/python3)
#   OUT/python-root        Debian unstable's python3.14 and the glibc it needs
#   OUT/pasarguard.json    a `stand compat pasarguard --target-config` file
#   ./prepare_pasarguard.sh OUT GIT_DIR [TAG] [PORT]
# GIT_DIR: a clone or bare snapshot of github.com/PasarGuard/panel holding TAG
# (default v5.2.1). PORT (default 25410) goes into pasarguard.json.
#
# Why each step (see tests/real-panels/pasarguard-from-source.md):
# - pyproject.toml wants Python >= 3.14 and the code uses PEP 758 syntax;
#   Debian 12 has 3.11, so sid's python3.14 .debs are unpacked into a private
#   root with sid's glibc, and patchelf points the binary at that loader;
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

# 2. Python 3.14 from Debian unstable, unpacked into a private root.
root=$out/python-root
py=$root/usr/bin/python3.14
if ! [[ -x $py ]] || ! "$py" -c 'import ssl, sqlite3' 2>/dev/null; then
  command -v patchelf >/dev/null || { say "apt-get install patchelf"; apt-get install -y patchelf >&2; }
  apt_dir=$out/apt-sid
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/etc" "$apt_dir/debs" "$root"
  : > "$apt_dir/status"
  # The machine's own Debian mirror, with the unstable suite.
  mirror=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -1)
  [[ -n $mirror ]] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  [[ -n $mirror ]] || die "no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"
  cat > "$apt_dir/etc/sid.sources" <<EOF
Types: deb
URIs: $mirror
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  cat > "$apt_dir/apt.conf" <<EOF
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "$apt_dir/etc";
Dir::State::Lists "$apt_dir/lists";
Dir::Cache "$apt_dir/cache";
Dir::State::status "$apt_dir/status";
APT::Architecture "amd64";
Acquire::IndexTargets::deb::DEP-11::DefaultEnabled "false";
Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled "false";
Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled "false";
EOF
  say "Debian unstable's python3.14 into $root"
  APT_CONFIG=$apt_dir/apt.conf apt-get update >&2
  (cd "$apt_dir/debs" && APT_CONFIG=$apt_dir/apt.conf apt-get -o Debug::NoLocking=1 download \
    libc6 libgcc-s1 gcc-16-base libcrypt1 libpython3.14-minimal python3.14-minimal \
    libpython3.14-stdlib python3.14 python3.14-venv libssl3t64 libffi8 zlib1g libexpat1 \
    libbz2-1.0 liblzma5 libzstd1 libsqlite3-0 libuuid1 libncursesw6 libtinfo6 libreadline8t64 \
    libdb5.3t64 python3-pip-whl python3-setuptools-whl libstdc++6 media-types >&2)
  for deb in "$apt_dir"/debs/*.deb; do dpkg -x "$deb" "$root"; done
  patchelf --set-interpreter "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
           --force-rpath --set-rpath "$root/usr/lib/x86_64-linux-gnu" "$py"
  "$py" -c 'import sys, ssl, sqlite3; print("python", sys.version.split()[0])' >&2
fi

# 3. The venv the panel's install_service.sh expects (src/.venv), from uv.lock.
venv=$src/.venv
if ! [[ -f $venv/.stand-complete ]]; then
  say "venv with $tag's uv.lock (PyPI wheels)"
  rm -rf "$venv"
  # ensurepip fails (Debian points it at a pip wheel of another release): pip comes from sid's wheel.
  "$py" -m venv --without-pip "$venv"
  pip_whl=$(ls "$root"/usr/share/python-wheels/pip-*.whl | head -1)
  [[ -n $pip_whl ]] || die "no pip wheel in $root/usr/share/python-wheels"
  "$venv/bin/python" "$pip_whl/pip" install --quiet --upgrade pip >&2
  "$venv/bin/pip" install --quiet uv >&2
  (cd "$src" && "$venv/bin/uv" export --frozen --no-dev --no-hashes --no-emit-project -o "$out/requirements.lock.txt" >&2)
  grep -E '^[a-zA-Z]' "$out/requirements.lock.txt" | grep -vE "sys_platform == 'win32'|^pip==" | sed 's/ ;.*//' \
    | grep -v '^asyncmy' > "$out/requirements.install.txt"
  "$venv/bin/pip" install --quiet --no-deps -r "$out/requirements.install.txt" >&2
  touch "$venv/.stand-complete"
fi

# 4. The dashboard stub (bun is not installable here).
if ! [[ -f $src/dashboard/build/index.html ]]; then
  mkdir -p "$src/dashboard/build/statics"
  echo '<!DOCTYPE html><html><head><title>PasarGuard dashboard (not built)</title></head><body></body></html>' \
    > "$src/dashboard/build/index.html"
fi

# 5. The compat target: the adapter's own native lifecycle, nothing else.
cat > "$out/pasarguard.json" <<EOF
{
  "config": {
    "mode": "native",
    "source_dir": "$src",
    "port": $port
  },
  "wrong_credentials": {"password": "Nope-Wrong-Pass-12"},
  "users": 5,
  "ready_timeout_s": 120,
  "check_timeout_s": 300,
  "unserved_links": "panel only: the host's address names no node (node1.bench.test), nothing serves the links"
}
EOF
say "ready: stand compat pasarguard --target-config $out/pasarguard.json"
