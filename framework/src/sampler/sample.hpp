// One reading of a box (or a process tree) at a monotonic instant. A field
// the source cannot read is absent (nullopt), never a zero pretending to be
// a measurement. Counters (cpu_usage_us, throttling, events, pressure
// totals) are cumulative; windows take deltas.
//
// Where each field comes from. v2 meanings from the kernel's
// Documentation/admin-guide/cgroup-v2.rst, v1 from cgroup-v1/memory.rst,
// cgroup-v1/cpuacct.rst and scheduler/sched-bwc.rst:
//
// field          | cgroup v2                    | cgroup v1
// ---------------+------------------------------+-----------------------------------------
// mem_current    | memory.current               | memory.usage_in_bytes (a "fuzz value",
//                |                              |   memory.rst 5.5; includes kernel memory)
// mem_peak       | memory.peak (kernel >= 5.19) | memory.max_usage_in_bytes
// anon           | memory.stat anon             | memory.stat total_rss (else rss): "anonymous
//                |                              |   and swap cache memory (includes THP)";
//                |                              |   v2 anon: anonymous mappings (brk, mmap)
// file           | memory.stat file (page cache | memory.stat total_cache (else cache): "page
//                |   incl. tmpfs and shm)       |   cache memory", also including tmpfs/shm
// inactive_file  | memory.stat inactive_file    | memory.stat total_inactive_file (else
//                |                              |   inactive_file)
// shmem          | memory.stat shmem            | memory.stat total_shmem (else shmem)
// kernel         | memory.stat kernel (kernel   | memory.kmem.usage_in_bytes ("current kernel
//                |   >= 5.18: stacks, page      |   memory allocation"); absent without kmem
//                |   tables, percpu, vmalloc,   |   accounting
//                |   slab, ...)                 |
// cpu_usage_us   | cpu.stat usage_usec          | cpuacct.usage (ns) / 1000
// nr_periods     | cpu.stat nr_periods          | cpu.stat nr_periods
// nr_throttled   | cpu.stat nr_throttled        | cpu.stat nr_throttled
// throttled_us   | cpu.stat throttled_usec      | cpu.stat throttled_time (ns) / 1000
// procs          | lines of cgroup.procs, the   | the same in the memory hierarchy (else the
//                |   group's and its children's |   first): containers are child groups
// tasks          | pids.current (threads too)   | pids.current
// events_max     | memory.events max            | memory.failcnt (times usage hit the limit;
//                |                              |   counts charge failures, so it is larger
//                |                              |   than v2's "about to go over max")
// events_oom     | memory.events oom            | absent (v1 has no such counter)
// events_oom_kill| memory.events oom_kill       | memory.oom_control oom_kill (kernel >= 4.13),
//                |                              |   the group's and its children's
// *_pressure     | cpu/memory/io.pressure       | absent (PSI per group is v2 only)
// host_*_pressure| /proc/pressure/{cpu,memory,io}, "some" line, both versions
//
// Slow fields: procs, the host_* pressure and, on v1, kernel and the memory
// events (failcnt, oom_control) are read at most once per
// SamplerOptions::slow_interval (1 s) and are absent in the samples in
// between. Re-opening v1 cgroup.procs costs ~70 us (the kernel rebuilds its
// pid list), which alone would be 0.07 % of a core at 10 Hz; on the build
// machines a wake-up alone costs ~65 us of thread CPU, so every file read
// each 100 ms counts against the 0.2 % budget. The memory events are rare
// counters: a window needs two readings of them, so one shorter than the
// slow interval shows them absent unless its edges come from
// Sampler::window_start() and sample_now() (every scenario step's do). Kernel memory is a gauge seen once a
// second. CPU throttling, peak and tasks are read every time.
//
// "total_*" are the hierarchical v1 counters, matching v2 where memory.stat
// always covers descendants. For the /proc fallback (no cgroup) see
// sample_source.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace stand::sampler {

using Clock = std::chrono::steady_clock;

// The "some" line of a PSI file: share of time at least one task stalled.
struct Pressure {
    std::optional<double> some_avg10;             // percent, 10 s average
    std::optional<std::uint64_t> some_total_us;   // cumulative stall time
};

struct Sample {
    Clock::time_point t{};

    std::optional<std::uint64_t> mem_current, mem_peak, anon, file, inactive_file, shmem, kernel;  // bytes
    std::optional<std::uint64_t> cpu_usage_us, nr_periods, nr_throttled, throttled_us;
    std::optional<std::uint64_t> procs, tasks;
    std::optional<std::uint64_t> events_max, events_oom, events_oom_kill;
    Pressure cpu_pressure, memory_pressure, io_pressure;
    Pressure host_cpu_pressure, host_memory_pressure, host_io_pressure;
};

// Tables over the fields, in CSV column order, so writers and window
// statistics treat every field alike.
struct U64Field {
    std::string_view name;
    std::optional<std::uint64_t> Sample::*member;
};
inline constexpr U64Field kGauges[] = {
    {"mem_current", &Sample::mem_current}, {"mem_peak", &Sample::mem_peak},
    {"anon", &Sample::anon},               {"file", &Sample::file},
    {"inactive_file", &Sample::inactive_file}, {"shmem", &Sample::shmem},
    {"kernel", &Sample::kernel},           {"procs", &Sample::procs},
    {"tasks", &Sample::tasks},
};
inline constexpr U64Field kCounters[] = {
    {"cpu_usage_us", &Sample::cpu_usage_us}, {"nr_periods", &Sample::nr_periods},
    {"nr_throttled", &Sample::nr_throttled}, {"throttled_us", &Sample::throttled_us},
    {"events_max", &Sample::events_max},     {"events_oom", &Sample::events_oom},
    {"events_oom_kill", &Sample::events_oom_kill},
};
struct PressureField {
    std::string_view name;
    Pressure Sample::*member;
};
inline constexpr PressureField kPressures[] = {
    {"cpu", &Sample::cpu_pressure},           {"memory", &Sample::memory_pressure},
    {"io", &Sample::io_pressure},             {"host_cpu", &Sample::host_cpu_pressure},
    {"host_memory", &Sample::host_memory_pressure}, {"host_io", &Sample::host_io_pressure},
};

}  // namespace stand::sampler
