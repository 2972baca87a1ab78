// The /proc fallback for a process tree without a cgroup (sample_source.hpp).
#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"
#include "sampler/proc_text.hpp"
#include "sampler/sample_source.hpp"

#include <dirent.h>
#include <map>
#include <unistd.h>
#include <vector>

namespace stand::sampler {
namespace {

using box::parse_u64;
using box::read_text;

std::optional<ProcStat> read_proc_stat(pid_t pid) {
    auto text = read_text("/proc/" + std::to_string(pid) + "/stat");
    if (!text) return std::nullopt;
    return parse_proc_stat(*text);
}

std::vector<pid_t> all_pids() {
    std::vector<pid_t> out;
    DIR* d = ::opendir("/proc");
    if (d == nullptr) return out;
    while (auto* e = ::readdir(d))
        if (auto v = parse_u64(e->d_name); v && *v > 0) out.push_back(static_cast<pid_t>(*v));
    ::closedir(d);
    return out;
}

void add(std::optional<std::uint64_t>& sum, std::optional<std::uint64_t> v) {
    if (v) sum = sum.value_or(0) + *v;
}

class ProcTreeSource final : public SampleSource {
public:
    explicit ProcTreeSource(pid_t root) : root_(root) {
        long tck = ::sysconf(_SC_CLK_TCK);
        ticks_per_s_ = tck > 0 ? static_cast<std::uint64_t>(tck) : 100;
    }

    void read(Sample& s, bool /*slow*/) override {
        std::map<pid_t, ProcStat> stats;
        for (pid_t p : all_pids())
            if (auto st = read_proc_stat(p)) stats.emplace(p, *st);
        if (!stats.count(root_)) return;  // the tree is gone: nothing to report

        std::vector<pid_t> members{root_};
        for (std::size_t i = 0; i < members.size(); ++i)
            for (const auto& [pid, st] : stats)
                if (st.ppid == members[i] && pid != root_) members.push_back(pid);

        std::uint64_t ticks = 0;
        std::optional<std::uint64_t> rss, anon, file, shmem, threads;
        for (pid_t p : members) {
            ticks += stats[p].cpu_ticks;
            auto status = read_text("/proc/" + std::to_string(p) + "/status");
            if (!status) continue;
            add(rss, status_kb(*status, "VmRSS:"));
            add(anon, status_kb(*status, "RssAnon:"));
            add(file, status_kb(*status, "RssFile:"));
            add(shmem, status_kb(*status, "RssShmem:"));
            add(threads, status_kb(*status, "Threads:"));
        }
        s.mem_current = rss;
        s.anon = anon;
        s.file = file;
        s.shmem = shmem;
        s.tasks = threads;
        s.procs = members.size();
        s.cpu_usage_us = ticks * 1000000 / ticks_per_s_;
    }
    std::string describe() const override { return "/proc tree of pid " + std::to_string(root_); }

private:
    pid_t root_;
    std::uint64_t ticks_per_s_;
};

}  // namespace

std::unique_ptr<SampleSource> make_proc_tree_source(pid_t root) { return std::make_unique<ProcTreeSource>(root); }

}  // namespace stand::sampler
