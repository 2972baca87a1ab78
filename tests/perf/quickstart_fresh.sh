#!/usr/bin/env bash
# Times `./stand.sh quickstart` on a fresh Debian 12: a debootstrap'ed
# bookworm root (made once in ROOT, reused unless FRESH_ROOT=1), a clean
# clone of this repository's HEAD in it, and the quickstart run inside a
# chroot with /proc, /sys (cgroups), /dev and /run bound in. Prints the
# quickstart's own phase times and the total wall time from the first command
# to the printed summary. Needs root and debootstrap; the packages come from
# the root's apt sources (deb.debian.org). Not part of ctest or CI.
#
#   sudo tests/perf/quickstart_fresh.sh [ROOT]     (default /var/tmp/stand-fresh-root)
set -euo pipefail

ROOT=${1:-/var/tmp/stand-fresh-root}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)

die() { echo "quickstart_fresh: $*" >&2; exit 1; }
((EUID == 0)) || die "needs root (debootstrap, chroot, mounts)"
command -v debootstrap >/dev/null || die "debootstrap not found: apt-get install debootstrap"

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true; done
}
trap cleanup EXIT

if [[ ${FRESH_ROOT:-0} == 1 ]]; then rm -rf "$ROOT"; fi
if [[ ! -x $ROOT/usr/bin/apt-get ]]; then
  echo "debootstrap bookworm into $ROOT (not timed)"
  debootstrap bookworm "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 || die "debootstrap failed: see $ROOT.debootstrap.log"
  cp -a "$ROOT" "$ROOT.pristine"
elif [[ -d $ROOT.pristine ]]; then
  echo "restoring the pristine root (not timed)"
  rm -rf "$ROOT" && cp -a "$ROOT.pristine" "$ROOT"
fi
# What a fresh machine of this kind has besides Debian: its resolver, the CAs
# it trusts (an egress proxy's) and its package-index settings.
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$ROOT/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
fi
[[ -f /etc/pip.conf ]] && cp /etc/pip.conf "$ROOT/etc/pip.conf"
machine_env=()
while IFS= read -r v; do machine_env+=("$v"); done < <(env | grep -E '^(PIP|GOPROXY|GOSUMDB|GOFLAGS|NPM_CONFIG|CARGO)[A-Z_]*=' || true)
rm -rf "$ROOT/root/stand"
git clone -q "$repo" "$ROOT/root/stand"

for d in proc sys dev run; do
  mkdir -p "$ROOT/$d"
  mount --rbind "/$d" "$ROOT/$d"
  mount --make-rslave "$ROOT/$d"
  mounted+=("$ROOT/$d")
done

echo "quickstart in a fresh bookworm root, $(nproc) CPUs, commit $(git -C "$repo" rev-parse --short HEAD)"
start=$(date +%s)
set +e
chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${machine_env[@]}" \
  bash -c 'cd /root/stand && ./stand.sh quickstart' 2>&1 | tee "$ROOT.quickstart.log"
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s)
echo "fresh-machine quickstart: $((end - start)) s wall ($(((end - start) / 60)) min $(((end - start) % 60)) s), exit $rc"
exit "$rc"
