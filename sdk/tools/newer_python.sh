#!/usr/bin/env bash
# A Python newer than Debian 12's 3.11, for a panel that needs one (PasarGuard
# wants 3.14): Debian unstable's python3.X and every package it depends on,
# unpacked into a private root. Nothing is installed into the system but
# Debian 12's own packages named below; the binary is pointed at the root's
# own glibc loader and libraries with patchelf (unstable's python needs a
# newer glibc than Debian 12's). Shipped with stand's SDK
# (<prefix>/share/stand/tools/newer_python.sh) and in its source tree
# (sdk/tools/).
#
#   newer_python.sh [--requirements FILE] [--source PKG]... [--apt PKG]... VERSIONS DEST [VENV]
#
# VERSIONS  3.N, or candidates newest first, comma-separated: 3.14,3.13,3.12.
#           The first that Debian unstable has is taken; with --requirements,
#           the first that also has a wheel of every requirement.
# DEST      the private root; DEST/usr/bin/python3.N is the interpreter
# VENV      also a virtual environment there, with pip from unstable's pip
#           wheel (ensurepip would look for a wheel of another release); with
#           --requirements they are installed into it
# --requirements FILE
#           the panel's requirements, pinned, one per line, dependencies
#           included (`uv export --frozen --no-hashes` of a uv.lock, `pip
#           freeze`, a pip-compile output; environment markers are dropped,
#           lines marked for Windows or macOS left out). A candidate is taken
#           when every line but the --source ones has a wheel for it on PyPI:
#           `pip download --only-binary=:all: --no-deps --python-version 3.N`
#           with this machine's pip, into DEST/wheels-3.N. Without this check a
#           pip of the new Python backtracks to versions without a wheel and
#           starts building them from source (grpcio-tools on 3.14, in 2026);
#           with it the failing candidate is named with what has no wheel.
# --source PKG
#           a requirement with no Linux wheel on PyPI, built from its source
#           (mysqlclient, psycopg2): not looked for as a wheel. Its build gets
#           the chosen Python's C headers (unstable's libpython3.N-dev, into
#           DEST), Debian 12's build-essential and pkg-config, and the C
#           library's headers where this script knows them (mysqlclient:
#           default-libmysqlclient-dev; psycopg2: libpq-dev); --apt adds others.
# --apt PKG a Debian 12 package a --source build needs besides (repeatable).
#
# Prints the interpreter's path on stdout (VENV/bin/python3 with VENV), the
# chosen version and everything else on stderr. Run again, it keeps an
# interpreter that imports ssl and sqlite3. Needs the machine's Debian mirror
# (it reads unstable's index there), patchelf (installed with apt-get when
# missing, as root, like the build packages of --source), and with
# --requirements this machine's pip (python3-pip) and PyPI.
set -euo pipefail

usage="usage: newer_python.sh [--requirements FILE] [--source PKG]... [--apt PKG]... VERSIONS DEST [VENV]"
say() { echo "==> $*" >&2; }
die() { echo "newer_python.sh: $*" >&2; exit 1; }
requirements='' sources=() apt_extra=()
while [[ ${1:-} == --* ]]; do
  case $1 in
    --requirements) requirements=${2:?$usage}; shift 2 ;;
    --source) sources+=("${2:?$usage}"); shift 2 ;;
    --apt) apt_extra+=("${2:?$usage}"); shift 2 ;;
    --help) echo "$usage"; exit 0 ;;
    *) die "unknown option $1 ($usage)" ;;
  esac
done
versions=${1:?$usage}
dest=${2:?$usage}
venv=${3:-}
IFS=', ' read -r -a candidates <<<"$versions"
((${#candidates[@]})) || die "VERSIONS is empty ($usage)"
for v in "${candidates[@]}"; do [[ $v =~ ^3\.[0-9]+$ ]] || die "VERSIONS: each must be 3.N, got '$v'"; done
absolute() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
dest=$(absolute "$dest")
[[ -z $venv ]] || venv=$(absolute "$venv")
[[ -z $requirements ]] || { requirements=$(absolute "$requirements"); [[ -f $requirements ]] || die "no file $requirements"; }
works() { "$1" -c 'import ssl, sqlite3' 2>/dev/null; }
# A package name as pip compares them (PEP 503).
normal() { tr 'A-Z_.' 'a-z--' <<<"$1"; }

# Debian 12 packages, installed when missing (as root).
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  [[ $(id -u) -eq 0 ]] || die "needs Debian's ${missing[*]}: run as root, or apt-get install them first"
  say "apt-get install ${missing[*]} (Debian 12's)"
  env -u APT_CONFIG apt-get update >&2  # a fresh machine's lists may be missing or stale
  env -u APT_CONFIG DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y \
    --no-install-recommends "${missing[@]}" >&2
}

# An apt of its own for Debian unstable: its index and downloads stay in
# DEST/apt-sid. It can never install: its dpkg is /bin/false (with unstable's
# index and an empty status, an install would replace the system's glibc).
apt_config=''
unstable_apt() {
  [[ -z $apt_config ]] || return 0
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
  apt_config=$apt_dir/apt.conf
  say "Debian unstable's index"
  APT_CONFIG=$apt_config apt-get update >&2
}
unstable_has() { unstable_apt; APT_CONFIG=$apt_config apt-cache show "python$1" >/dev/null 2>&1; }

# The packages named and everything they depend on (glibc included), unpacked into DEST.
unpack() {
  local debs=$dest/apt-sid/debs packages
  unstable_apt
  packages=$(APT_CONFIG=$apt_config apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
               --no-breaks --no-replaces --no-enhances "$@" | grep -v '^[ <]' | sort -u)
  say "$(wc -w <<<"$packages") packages ($* and what they depend on) into $dest"
  rm -f "$debs"/*.deb
  # shellcheck disable=SC2086  # one argument per package
  (cd "$debs" && APT_CONFIG=$apt_config apt-get -o Debug::NoLocking=1 download $packages >&2)
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$dest"; done
}

# The requirements to look for as wheels: markers dropped, Windows and macOS
# lines and the --source packages left out. Also writes DEST/requirements.source.txt.
checked_requirements() {
  local out=$dest/requirements.wheels.txt src=$dest/requirements.source.txt line name s
  : > "$out"; : > "$src"
  while IFS= read -r line; do
    line=${line%%#*}
    [[ $line =~ ^[[:space:]]*[A-Za-z0-9] ]] || continue
    [[ $line != *"sys_platform == 'win32'"* && $line != *"sys_platform == 'darwin'"* ]] || continue
    line=$(sed -E 's/[[:space:]]*;.*//; s/[[:space:]]+$//; s/^[[:space:]]+//' <<<"$line")
    name=$(normal "$(sed -E 's/[[:space:]]*([<>=!~\[@ ].*)?$//' <<<"$line")")
    for s in "${sources[@]}"; do
      if [[ $name == "$(normal "$s")" ]]; then echo "$line" >> "$src"; continue 2; fi
    done
    echo "$line" >> "$out"
  done < "$requirements"
  echo "$out"
}

# Every wheel of the checked requirements for Python $1, into DEST/wheels-$1.
wheels_exist() {
  local version=$1 list=$2 log=$dest/wheels-$1.log
  say "python$version: a wheel for each of $(grep -c . "$list") requirements (pip download --only-binary=:all:)"
  if python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps \
       --python-version "$version" --implementation cp --dest "$dest/wheels-$version" -r "$list" > "$log" 2>&1; then
    return 0
  fi
  say "python$version: refused: $(grep -E 'No matching distribution|ERROR' "$log" | sed 's/ (from versions:.*//' | head -3 |
    tr '\n' ' ')(all of pip's output: $log)"
  return 1
}

mkdir -p "$dest"
# 1. The version: the first candidate unstable has (and, with requirements, whose wheels exist).
version=''
if ((${#candidates[@]} == 1)) && [[ -z $requirements ]] && [[ -x $dest/usr/bin/python${candidates[0]} ]]; then
  version=${candidates[0]}  # kept from an earlier run: no index needed
else
  [[ -z $requirements ]] || python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  [[ -z $requirements ]] || wheel_list=$(checked_requirements)
  for v in "${candidates[@]}"; do
    if ! unstable_has "$v"; then say "python$v: Debian unstable has none"; continue; fi
    if [[ -n $requirements ]] && ! wheels_exist "$v" "$wheel_list"; then continue; fi
    version=$v; break
  done
  [[ -n $version ]] || die "none of ${candidates[*]} fits (see above)"
fi
say "python$version"
py=$dest/usr/bin/python$version

# 2. The interpreter, unpacked and pointed at DEST's loader.
if ! [[ -x $py ]] || ! works "$py"; then
  command -v patchelf >/dev/null || apt_install patchelf
  unpack "python$version" "python$version-venv"
  patchelf --set-interpreter "$dest/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
           --force-rpath --set-rpath "$dest/usr/lib/x86_64-linux-gnu" "$py"
fi
works "$py" || die "$py does not import ssl and sqlite3"
say "$("$py" -c 'import sys, ssl; print("python", sys.version.split()[0], ssl.OPENSSL_VERSION)')"

# 3. What the --source packages build with: the Python's own headers (its
# pyconfig.h made self-contained: Debian's is a wrapper naming the multiarch
# one by a path the compiler would look for in the system's include folders)
# and Debian 12's compiler, pkg-config and C libraries.
cflags=''
if ((${#sources[@]})); then
  include=$dest/usr/include/python$version
  if ! [[ -f $include/Python.h ]]; then
    unstable_apt
    (cd "$dest/apt-sid/debs" && rm -f ./*.deb && APT_CONFIG=$apt_config apt-get -o Debug::NoLocking=1 download \
      "libpython$version-dev" >&2)
    for deb in "$dest"/apt-sid/debs/*.deb; do dpkg -x "$deb" "$dest"; done
  fi
  multiarch=$dest/usr/include/x86_64-linux-gnu/python$version/pyconfig.h
  [[ ! -f $multiarch ]] || cp "$multiarch" "$include/pyconfig.h"
  [[ -f $include/Python.h ]] || die "no $include/Python.h after unpacking libpython$version-dev"
  build=(build-essential pkg-config "${apt_extra[@]}")
  for s in "${sources[@]}"; do
    case $(normal "$s") in
      mysqlclient) build+=(default-libmysqlclient-dev) ;;
      psycopg2) build+=(libpq-dev) ;;
    esac
  done
  apt_install "${build[@]}"
  cflags="-I$include"
fi

# 4. The venv, and the requirements in it.
if [[ -n $venv ]]; then
  if ! [[ -x $venv/bin/python3 ]] || ! "$venv/bin/python3" -c 'import pip' 2>/dev/null; then
    say "venv $venv"
    rm -rf "$venv"
    "$py" -m venv --without-pip "$venv"
    pip_whl=$(ls "$dest"/usr/share/python-wheels/pip-*.whl 2>/dev/null | head -1)
    [[ -n $pip_whl ]] || die "no pip wheel in $dest/usr/share/python-wheels"
    "$venv/bin/python3" "$pip_whl/pip" install --quiet --no-index "$pip_whl" >&2
  fi
  if [[ -n $requirements ]]; then
    say "the requirements' wheels into the venv (offline, from $dest/wheels-$version)"
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-index --no-deps \
      --find-links "$dest/wheels-$version" -r "$dest/requirements.wheels.txt" >&2
    if [[ -s $dest/requirements.source.txt ]]; then
      say "built from source: $(tr '\n' ' ' < "$dest/requirements.source.txt")"
      CFLAGS="$cflags ${CFLAGS:-}" "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check \
        --no-deps --no-binary "$(IFS=,; echo "${sources[*]}")" -r "$dest/requirements.source.txt" >&2
    fi
  fi
  echo "$venv/bin/python3"
else
  [[ -z $cflags ]] || say "a source build needs CFLAGS=$cflags (the Python's headers)"
  echo "$py"
fi
