#!/usr/bin/env bash
# The disk probe versus fio on one and the same test file: ROUNDS interleaved
# rounds (the order alternates: probe, fio / fio, probe / ...), each a
# time-based run of one CrystalDiskMark profile with the same engine
# (io_uring), O_DIRECT, block size, queue depth and one thread. The probe runs
# through `stand run` on a generated one-step scenario (its metrics come from
# the run directory); fio runs with the equivalent job and --output-format=json.
# Prints every round, the medians, the IOPS ratio and the CPU-per-I/O ratio
# stand/fio. Not part of ctest or CI.
#
#   tests/perf/disk_vs_fio.sh [--profile JOB] [--dir DIR] [--size-mib N] [--seconds S] [--rounds R]
#                             [--stand BINARY] [--fio-defaults] [--pin CPUS]
#
# JOB is one of the probe's jobs (default rnd4k-q32t1-read): seq1m-q8t1-read,
# seq1m-q8t1-write, seq1m-q1t1-read, seq1m-q1t1-write, rnd4k-q32t1-read,
# rnd4k-q32t1-write, rnd4k-q1t1-read, rnd4k-q1t1-write. Defaults: --dir
# /var/tmp, --size-mib 1024, --seconds 10, --rounds 3, --stand build/bin/stand.
# The test file DIR/stand-disk-vs-fio-<N>m.dat is written once in full
# (1 MiB O_DIRECT writes of random data) and removed at the end. CPU per I/O
# is user + system time of the I/O doer (the probe's I/O thread, fio's job
# process) divided by the I/Os. (No real-time priority: the probe runs in a
# cgroup box, and cgroup v1 refuses SCHED_FIFO tasks there.) Needs fio
# (apt-get install fio).
#
# --pin CPUS (cpuset syntax, e.g. 1) runs both on those CPUs: the probe in a
# box pinned there, fio under taskset; it keeps the scheduler's moves out of
# a comparison whose IOPS follow CPU per I/O.
#
# "Equivalent job": by default fio gets the options that make it do what the
# probe does, and nothing more: --fixedbufs (the probe registers its buffers),
# --norandommap (the probe draws random offsets uniformly, with repeats),
# --disable_slat=1 --disable_clat=1 --disable_bw_measurement=1 (the probe
# takes one latency per I/O, submission to completion, which is fio's "lat",
# and logs no bandwidth). --fio-defaults runs plain fio instead, to show what
# fio's extra bookkeeping costs on a machine where IOPS follow CPU per I/O.
set -euo pipefail

PROFILE=rnd4k-q32t1-read
PIN=
DIR=/var/tmp
SIZE_MIB=1024
SECONDS_PER_RUN=10
ROUNDS=3
STAND=build/bin/stand
FIO_EQUIVALENT=(--fixedbufs --norandommap --disable_slat=1 --disable_clat=1 --disable_bw_measurement=1)

die() { echo "disk_vs_fio: $*" >&2; exit 1; }
while (($#)); do
  case $1 in
    --profile) PROFILE=${2:?}; shift 2 ;;
    --dir) DIR=${2:?}; shift 2 ;;
    --size-mib) SIZE_MIB=${2:?}; shift 2 ;;
    --seconds) SECONDS_PER_RUN=${2:?}; shift 2 ;;
    --rounds) ROUNDS=${2:?}; shift 2 ;;
    --stand) STAND=${2:?}; shift 2 ;;
    --fio-defaults) FIO_EQUIVALENT=(); shift ;;
    --pin) PIN=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--profile, --dir, --size-mib, --seconds, --rounds, --stand, --fio-defaults, --pin)" ;;
  esac
done

command -v fio >/dev/null || die "fio not found: install it (apt-get install fio); the comparison needs the real fio"
[[ -x $STAND ]] || die "no stand binary at $STAND (build it, or pass --stand)"
[[ -d $DIR ]] || die "--dir $DIR is not a directory"
[[ $SIZE_MIB =~ ^[1-9][0-9]*$ ]] || die "--size-mib must be a positive integer, got '$SIZE_MIB'"
[[ $SECONDS_PER_RUN =~ ^[1-9][0-9]*$ ]] || die "--seconds must be a positive integer, got '$SECONDS_PER_RUN'"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer, got '$ROUNDS'"

# The profile as fio options: pattern, block size, queue depth.
case $PROFILE in
  seq1m-q8t1-read) FIO_RW=read BS=1m QD=8 ;;
  seq1m-q8t1-write) FIO_RW=write BS=1m QD=8 ;;
  seq1m-q1t1-read) FIO_RW=read BS=1m QD=1 ;;
  seq1m-q1t1-write) FIO_RW=write BS=1m QD=1 ;;
  rnd4k-q32t1-read) FIO_RW=randread BS=4k QD=32 ;;
  rnd4k-q32t1-write) FIO_RW=randwrite BS=4k QD=32 ;;
  rnd4k-q1t1-read) FIO_RW=randread BS=4k QD=1 ;;
  rnd4k-q1t1-write) FIO_RW=randwrite BS=4k QD=1 ;;
  *) die "unknown --profile '$PROFILE' (seq1m-q8t1-read, seq1m-q8t1-write, seq1m-q1t1-read, seq1m-q1t1-write, rnd4k-q32t1-read, rnd4k-q32t1-write, rnd4k-q1t1-read, rnd4k-q1t1-write)" ;;
esac
FIO_DIR=read
[[ $FIO_RW == *write ]] && FIO_DIR=write

work=$(mktemp -d /tmp/stand-disk-vs-fio-XXXXXX)
file=${DIR%/}/stand-disk-vs-fio-${SIZE_MIB}m.dat
cleanup() { rm -rf "$work"; rm -f "$file"; }
trap cleanup EXIT

echo "disk probe vs fio: $PROFILE, ${SIZE_MIB} MiB file in $DIR, ${SECONDS_PER_RUN} s per run, $ROUNDS rounds, $(fio --version), fio options: ${FIO_EQUIVALENT[*]:-none, the defaults}${PIN:+, both pinned to CPU $PIN}"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "writing $file once in full ..."
dd if=/dev/urandom of="$file" bs=1M count="$SIZE_MIB" oflag=direct conv=fsync status=none ||
  die "could not write the test file $file"

cat >"$work/scenario.json" <<EOF
{
  "schema_version": 1,
  "name": "disk-vs-fio",
  "description": "one run of the disk probe on the file fio reads (tests/perf/disk_vs_fio.sh)",
  "plugins": ["disk"],$([[ -n $PIN ]] && printf '\n  "box": {"pin": "%s"},' "$PIN")
  "phases": [{"name": "disk", "steps": [
    {"step": "run_probe", "name": "probe", "job": "$PROFILE",
     "params": {"file": "$file", "size_mib": $SIZE_MIB, "duration_s": $SECONDS_PER_RUN}}]}]
}
EOF

# shellcheck source=tests/perf/lib/numbers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/numbers.sh"
CALC_DECIMALS=3
csv_metric() { awk -F, -v m="probe.$2" '$3 == m { printf "%.10g", $4 }' "$1"; }

run_probe() {
  local run_dir=$work/run-$1
  "$STAND" run "$work/scenario.json" --run-dir "$run_dir" >"$work/stand-$1.log" 2>&1 ||
    die "stand run failed (round $1): $(tail -5 "$work/stand-$1.log")"
  probe_iops=$(csv_metric "$run_dir/per_rep.csv" iops)
  probe_cpu_us=$(csv_metric "$run_dir/per_rep.csv" cpu_us_per_io)
  [[ -n $probe_iops && -n $probe_cpu_us ]] || die "no probe metrics in $run_dir/per_rep.csv"
}
run_fio() {
  ${PIN:+taskset -c "$PIN"} fio --name=disk-vs-fio --filename="$file" --size="${SIZE_MIB}m" --ioengine=io_uring --direct=1 \
      --time_based --runtime="$SECONDS_PER_RUN" --rw="$FIO_RW" --bs="$BS" --iodepth="$QD" --numjobs=1 \
      "${FIO_EQUIVALENT[@]}" --output-format=json >"$work/fio-$1.json" 2>"$work/fio-$1.err" ||
    die "fio failed (round $1): $(tail -5 "$work/fio-$1.err")"
  read -r fio_iops fio_cpu_us < <(python3 - "$work/fio-$1.json" "$FIO_DIR" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
io = job[sys.argv[2]]
cpu_s = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * job["job_runtime"] / 1000.0
print(f'{io["iops"]:.10g} {cpu_s * 1e6 / io["total_ios"]:.10g}')
PY
  )
}

printf '%-6s %12s %12s %14s %14s %10s %10s\n' round fio_iops stand_iops fio_cpu_us/io stand_cpu_us/io iops_ratio cpu_ratio
fio_iopss=() probe_iopss=() fio_cpus=() probe_cpus=() iops_ratios=() cpu_ratios=()
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then run_probe "$round"; run_fio "$round"; else run_fio "$round"; run_probe "$round"; fi
  iops_ratio=$(calc "$probe_iops / $fio_iops")
  cpu_ratio=$(calc "$probe_cpu_us / $fio_cpu_us")
  printf '%-6s %12.0f %12.0f %14.2f %14.2f %10s %10s\n' "$round" "$fio_iops" "$probe_iops" "$fio_cpu_us" "$probe_cpu_us" \
    "$iops_ratio" "$cpu_ratio"
  fio_iopss+=("$fio_iops") probe_iopss+=("$probe_iops") fio_cpus+=("$fio_cpu_us") probe_cpus+=("$probe_cpu_us")
  iops_ratios+=("$iops_ratio") cpu_ratios+=("$cpu_ratio")
done
m_fio=$(printf '%s\n' "${fio_iopss[@]}" | median)
m_probe=$(printf '%s\n' "${probe_iopss[@]}" | median)
m_fio_cpu=$(printf '%s\n' "${fio_cpus[@]}" | median)
m_probe_cpu=$(printf '%s\n' "${probe_cpus[@]}" | median)
printf '%-6s %12.0f %12.0f %14.2f %14.2f %10s %10s\n' median "$m_fio" "$m_probe" "$m_fio_cpu" "$m_probe_cpu" \
  "$(printf '%s\n' "${iops_ratios[@]}" | median)" "$(printf '%s\n' "${cpu_ratios[@]}" | median)"
iops_ratio=$(calc "$m_probe / $m_fio")
cpu_ratio=$(calc "$m_probe_cpu / $m_fio_cpu")
echo "IOPS ratio stand/fio (of the medians): $iops_ratio   CPU-per-I/O ratio stand/fio: $cpu_ratio"
echo "(acceptance: IOPS within ±5 % of fio; goal: within ±3 % and CPU per I/O at most fio's)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
