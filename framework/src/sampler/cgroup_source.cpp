// The cgroup sample sources: the file set differs between v1 and v2, the
// field meanings are in sample.hpp.
#include "box/cgroup_text.hpp"
#include "sampler/group_tree.hpp"
#include "sampler/pressure.hpp"
#include "sampler/sample_source.hpp"
#include "sampler/stat_file.hpp"

#include <stdexcept>

namespace stand::sampler {
namespace {

namespace fs = std::filesystem;
using box::find_u64;
using box::parse_u64;

std::optional<std::uint64_t> ns_to_us(std::optional<std::uint64_t> ns) {
    if (!ns) return std::nullopt;
    return *ns / 1000;
}

// The first of `keys` present (v1: hierarchical total_* first).
std::optional<std::uint64_t> first_of(std::string_view text, std::initializer_list<std::string_view> keys) {
    for (auto k : keys)
        if (auto v = find_u64(text, k)) return v;
    return std::nullopt;
}

struct Files {
    // A file under the controller's dir; an unknown controller gives a file that never opens.
    static StatFile at(const box::GroupPaths& paths, std::string_view controller, const char* name,
                       StatFile::Reopen reopen = StatFile::Reopen::never) {
        const auto* e = paths.find(controller);
        return StatFile(e ? e->dir / name : fs::path("/nonexistent/stand") / name, reopen);
    }
};

class CgroupV1Source final : public SampleSource {
public:
    explicit CgroupV1Source(const box::GroupPaths& paths)
        : usage_(Files::at(paths, "memory", "memory.usage_in_bytes")),
          max_usage_(Files::at(paths, "memory", "memory.max_usage_in_bytes")),
          stat_(Files::at(paths, "memory", "memory.stat")),
          kmem_(Files::at(paths, "memory", "memory.kmem.usage_in_bytes")),
          failcnt_(Files::at(paths, "memory", "memory.failcnt")),
          cpuacct_(Files::at(paths, "cpuacct", "cpuacct.usage")),
          cpu_stat_(Files::at(paths, "cpu", "cpu.stat")),
          pids_(Files::at(paths, "pids", "pids.current")),
          procs_dir_((paths.find("memory") ? *paths.find("memory") : paths.controllers.begin()->second).dir),
          memory_dir_(paths.find("memory") ? std::optional<fs::path>(paths.find("memory")->dir) : std::nullopt),
          what_("cgroup v1 " + procs_dir_.string()) {}

    void read(Sample& s, bool slow) override {
        if (auto t = usage_.read()) s.mem_current = parse_u64(*t);
        if (auto t = stat_.read()) {
            s.anon = first_of(*t, {"total_rss", "rss"});
            s.file = first_of(*t, {"total_cache", "cache"});
            s.inactive_file = first_of(*t, {"total_inactive_file", "inactive_file"});
            s.shmem = first_of(*t, {"total_shmem", "shmem"});
        }
        if (auto t = cpuacct_.read()) s.cpu_usage_us = ns_to_us(parse_u64(*t));
        if (auto t = max_usage_.read()) s.mem_peak = parse_u64(*t);
        if (auto t = cpu_stat_.read()) {
            s.nr_periods = find_u64(*t, "nr_periods");
            s.nr_throttled = find_u64(*t, "nr_throttled");
            s.throttled_us = ns_to_us(find_u64(*t, "throttled_time"));
        }
        if (auto t = pids_.read()) s.tasks = parse_u64(*t);
        if (!slow) return;  // the rest: sample.hpp, "Slow fields"
        if (auto t = kmem_.read()) s.kernel = parse_u64(*t);
        if (auto t = failcnt_.read()) s.events_max = parse_u64(*t);
        if (memory_dir_) s.events_oom_kill = sum_group_oom_kills(*memory_dir_);
        s.procs = count_group_procs(procs_dir_);
    }
    std::string describe() const override { return what_; }

private:
    StatFile usage_, max_usage_, stat_, kmem_, failcnt_, cpuacct_, cpu_stat_, pids_;
    fs::path procs_dir_;
    std::optional<fs::path> memory_dir_;
    std::string what_;
};

class CgroupV2Source final : public SampleSource {
public:
    explicit CgroupV2Source(const fs::path& dir)
        : current_(dir / "memory.current"), peak_(dir / "memory.peak"), stat_(dir / "memory.stat"),
          events_(dir / "memory.events"), cpu_stat_(dir / "cpu.stat"), pids_(dir / "pids.current"),
          procs_dir_(dir), cpu_pressure_(dir / "cpu.pressure"),
          memory_pressure_(dir / "memory.pressure"), io_pressure_(dir / "io.pressure"),
          what_("cgroup v2 " + dir.string()) {}

    void read(Sample& s, bool slow) override {
        if (auto t = current_.read()) s.mem_current = parse_u64(*t);
        if (auto t = peak_.read()) s.mem_peak = parse_u64(*t);
        if (auto t = stat_.read()) {
            s.anon = find_u64(*t, "anon");
            s.file = find_u64(*t, "file");
            s.inactive_file = find_u64(*t, "inactive_file");
            s.shmem = find_u64(*t, "shmem");
            s.kernel = find_u64(*t, "kernel");
        }
        if (auto t = events_.read()) {
            s.events_max = find_u64(*t, "max");
            s.events_oom = find_u64(*t, "oom");
            s.events_oom_kill = find_u64(*t, "oom_kill");
        }
        if (auto t = cpu_stat_.read()) {
            s.cpu_usage_us = find_u64(*t, "usage_usec");
            s.nr_periods = find_u64(*t, "nr_periods");
            s.nr_throttled = find_u64(*t, "nr_throttled");
            s.throttled_us = find_u64(*t, "throttled_usec");
        }
        if (auto t = pids_.read()) s.tasks = parse_u64(*t);
        if (auto t = cpu_pressure_.read()) s.cpu_pressure = parse_pressure_some(*t);
        if (auto t = memory_pressure_.read()) s.memory_pressure = parse_pressure_some(*t);
        if (auto t = io_pressure_.read()) s.io_pressure = parse_pressure_some(*t);
        if (!slow) return;
        s.procs = count_group_procs(procs_dir_);
    }
    std::string describe() const override { return what_; }

private:
    StatFile current_, peak_, stat_, events_, cpu_stat_, pids_;
    fs::path procs_dir_;
    StatFile cpu_pressure_, memory_pressure_, io_pressure_;
    std::string what_;
};

class HostPressureSource final : public SampleSource {
public:
    HostPressureSource() : cpu_("/proc/pressure/cpu"), memory_("/proc/pressure/memory"), io_("/proc/pressure/io") {}
    void read(Sample& s, bool slow) override {
        if (!slow) return;
        if (auto t = cpu_.read()) s.host_cpu_pressure = parse_pressure_some(*t);
        if (auto t = memory_.read()) s.host_memory_pressure = parse_pressure_some(*t);
        if (auto t = io_.read()) s.host_io_pressure = parse_pressure_some(*t);
    }
    std::string describe() const override { return "/proc/pressure"; }

private:
    StatFile cpu_, memory_, io_;
};

}  // namespace

std::unique_ptr<SampleSource> make_cgroup_source(const box::GroupPaths& paths) {
    if (paths.controllers.empty()) throw std::invalid_argument("sampler: the box has no cgroup directories");
    if (paths.version == box::CgroupVersion::v2) return std::make_unique<CgroupV2Source>(paths.controllers.begin()->second.dir);
    return std::make_unique<CgroupV1Source>(paths);
}

std::unique_ptr<SampleSource> make_host_pressure_source() { return std::make_unique<HostPressureSource>(); }

}  // namespace stand::sampler
