#!/usr/bin/env bash
# A Python newer than Debian 12's 3.11, for a panel that needs one (PasarGuard
# wants 3.14): Debian unstable's python3.X and every package it depends on,
# unpacked into a private root. Nothing is installed into the system; the
# binary is pointed at the root's own glibc loader and libraries with patchelf
# (unstable's python needs a newer glibc than Debian 12's).
#   newer_python.sh VERSION DEST [VENV]
# VERSION  a python3.X Debian unstable has (3.13, 3.14, 3.15 when written)
# DEST     the private root; DEST/usr/bin/pythonVERSION is the interpreter
# VENV     also a virtual environment there, with pip from unstable's pip wheel
#          (ensurepip would look for a wheel of another release)
# Prints the interpreter's path on stdout (VENV/bin/python3 with VENV), the
# rest on stderr. Run again, it keeps an interpreter that imports ssl and
# sqlite3. Needs the machine's Debian mirror (it reads unstable's index
# there) and patchelf (installed with apt-get when missing, as root).
set -euo pipefail

usage="usage: newer_python.sh VERSION DEST [VENV]"
version=${1:?$usage}
dest=${2:?$usage}
venv=${3:-}
say() { echo "==> $*" >&2; }
die() { echo "newer_python.sh: $*" >&2; exit 1; }
[[ $version =~ ^3\.[0-9]+$ ]] || die "VERSION must be 3.N, got '$version'"
absolute() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
dest=$(absolute "$dest")
[[ -z $venv ]] || venv=$(absolute "$venv")
py=$dest/usr/bin/python$version
works() { "$1" -c 'import ssl, sqlite3' 2>/dev/null; }

# An apt of its own for Debian unstable: its index and downloads stay in
# DEST/apt-sid. It can never install: its dpkg is /bin/false (with unstable's
# index and an empty status, an install would replace the system's glibc).
unstable_apt_config() {
  local apt_dir=$dest/apt-sid mirror
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/etc" "$apt_dir/debs"
  : > "$apt_dir/status"
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
APT::Architectures { "amd64"; };
Dir::Bin::dpkg "/bin/false";
Acquire::IndexTargets::deb::DEP-11::DefaultEnabled "false";
Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled "false";
Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled "false";
EOF
  echo "$apt_dir/apt.conf"
}

# pythonVERSION and pythonVERSION-venv with everything they depend on (glibc included), unpacked.
unpack_python() {
  local config debs=$dest/apt-sid/debs packages
  if ! command -v patchelf >/dev/null; then
    say "apt-get install patchelf (Debian 12's)"
    env -u APT_CONFIG apt-get update >&2  # a fresh machine's lists may be missing or stale
    env -u APT_CONFIG apt-get install -y patchelf >&2
  fi
  config=$(unstable_apt_config)
  say "Debian unstable's index"
  APT_CONFIG=$config apt-get update >&2
  APT_CONFIG=$config apt-cache show "python$version" >/dev/null 2>&1 || die "Debian unstable has no python$version"
  packages=$(APT_CONFIG=$config apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
               --no-replaces --no-enhances "python$version" "python$version-venv" | grep -v '^[ <]' | sort -u)
  say "$(wc -w <<<"$packages") packages (python$version, python$version-venv and what they depend on) into $dest"
  rm -f "$debs"/*.deb
  # shellcheck disable=SC2086  # one argument per package
  (cd "$debs" && APT_CONFIG=$config apt-get -o Debug::NoLocking=1 download $packages >&2)
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$dest"; done
  patchelf --set-interpreter "$dest/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
           --force-rpath --set-rpath "$dest/usr/lib/x86_64-linux-gnu" "$py"
}

# A venv whose pip comes from unstable's wheel, offline.
make_venv() {
  local pip_whl
  say "venv $venv"
  rm -rf "$venv"
  "$py" -m venv --without-pip "$venv"
  pip_whl=$(ls "$dest"/usr/share/python-wheels/pip-*.whl 2>/dev/null | head -1)
  [[ -n $pip_whl ]] || die "no pip wheel in $dest/usr/share/python-wheels"
  "$venv/bin/python3" "$pip_whl/pip" install --quiet --no-index "$pip_whl" >&2
}

mkdir -p "$dest"
if ! [[ -x $py ]] || ! works "$py"; then unpack_python; fi
works "$py" || die "$py does not import ssl and sqlite3"
say "$("$py" -c 'import sys, ssl; print("python", sys.version.split()[0], ssl.OPENSSL_VERSION)')"
if [[ -n $venv ]]; then
  if ! [[ -x $venv/bin/python3 ]] || ! "$venv/bin/python3" -c 'import pip' 2>/dev/null; then make_venv; fi
  echo "$venv/bin/python3"
else
  echo "$py"
fi
