// Where samples come from: a box's cgroups (v1 or v2, see sample.hpp for
// the field mapping), a process tree from /proc when there is no cgroup,
// and the host's pressure.
#pragma once

#include "box/group_paths.hpp"
#include "sampler/sample.hpp"

#include <memory>
#include <string>
#include <sys/types.h>

namespace stand::sampler {

class SampleSource {
public:
    virtual ~SampleSource() = default;
    // Fills the fields this source knows; others are left as they are.
    // `slow`: also the costly fields (see sample.hpp), else they stay absent.
    virtual void read(Sample& s, bool slow) = 0;
    virtual std::string describe() const = 0;
};

std::unique_ptr<SampleSource> make_cgroup_source(const box::GroupPaths& paths);

// The tree rooted at `root`, found each sample from /proc/<pid>/stat parent
// links. mem_current = sum of VmRSS, anon/file/shmem = sums of RssAnon,
// RssFile, RssShmem (/proc/<pid>/status); cpu_usage_us = sum of utime +
// stime + cutime + cstime (/proc/<pid>/stat, so children reaped inside the
// tree stay counted; time of a process reaped outside the tree is lost);
// procs = members, tasks = sum of Threads, on every read. Shared pages
// count once per process, so the memory sum overstates; mem_peak, kernel,
// inactive_file, throttling, events and pressure are absent. Scanning all
// of /proc costs far more than a cgroup read: sample it at 1 Hz.
std::unique_ptr<SampleSource> make_proc_tree_source(pid_t root);

// /proc/pressure/{cpu,memory,io} "some" into the host_* fields.
std::unique_ptr<SampleSource> make_host_pressure_source();

}  // namespace stand::sampler
