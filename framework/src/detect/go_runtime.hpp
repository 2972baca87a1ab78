// go-runtime-oversized (seed 001's pitfall #8): a Go program in the box whose
// scheduler (GOMAXPROCS, the Ps that run goroutines at once) was sized by
// something other than the box's CPU limit: its environment, the machine's
// CPUs (Go before 1.25, or containermaxprocs=0), or a limit out of its sight.
// More Ps than vCPUs use up the CFS quota early in every period and stand
// still for the rest.
//
// The size Go chooses at start (runtime/cgroup_linux.go, debug.go):
//   1. GOMAXPROCS in the environment, a positive whole number, wins;
//   2. Go >= 1.25 with containermaxprocs=1 (the default for a main module
//      whose go line is >= 1.25; GODEBUG and the binary's DefaultGODEBUG can
//      turn it off): min(affinity CPUs, max(2, ceil(quota / period))), the
//      quota read from the process's own (leaf) cgroup only, as seen through
//      its cgroup namespace; a parent's quota is never read;
//   3. otherwise the CPUs of its affinity mask.
// A program linking go.uber.org/automaxprocs may set floor(quota / period)
// (at least 1) itself; the derivation says so when the binary has it.
#pragma once

#include "detect/finding.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stand::detect {

struct GoProcess {
    std::int64_t pid = 0;
    std::string process;  // /proc/PID/comm
    std::string exe;      // /proc/PID/exe's target
    std::string go_version;
    std::string default_godebug;  // from the build info
    bool automaxprocs = false;    // links go.uber.org/automaxprocs
    std::optional<std::string> gomaxprocs_env, godebug_env;
    unsigned affinity_cpus = 0;  // Cpus_allowed_list of /proc/PID/status
    std::string cgroup;          // the cpu cgroup directory holding it (its leaf)
    std::optional<std::uint64_t> quota_us, period_us;  // of that leaf; no quota_us: unlimited
    bool own_cgroup_namespace = false;  // /proc/PID/ns/cgroup differs from stand's

    // The limit Go can see: quota / period of its leaf; nullopt: none.
    std::optional<double> visible_vcpu() const;
    boost::json::object to_json() const;
};

struct GoProcs {
    unsigned size = 0;
    bool sized_by_limit = false;  // derived from the CPU limit it read
    std::optional<double> limit_read;  // that limit (vCPU)
    std::string how;  // "GOMAXPROCS=4 in its environment", "Go 1.26 read its cgroup's 1.00 vCPU limit: max(2, ceil) = 2", ...
    std::string fix;  // besides GOMAXPROCS=<the box's vCPUs>: what else would size it right
};

GoProcs derive_go_procs(const GoProcess& p);

// The throttling the sampler saw over the repetition (deltas).
struct Throttling {
    std::uint64_t periods = 0, throttled_periods = 0, throttled_us = 0;
};

struct GoRuntimeVerdict {
    std::vector<Finding> findings;   // go-runtime-oversized
    std::vector<std::string> notes;  // caveats: sized by the limit, yet above the box by Go's own rounding
};

// `box_vcpu`: the CPUs the box grants (quota / period, at most its cpuset);
// nullopt: no limit, nothing can be oversized.
GoRuntimeVerdict check_go_runtimes(const std::vector<GoProcess>& processes, std::optional<double> box_vcpu,
                                   const std::optional<Throttling>& throttling, const std::string& scope);

// Collects the Go programs among the processes of a box, each inspected once
// (by pid); the box's groups are listed anew on every scan, so processes
// started by any step are seen.
class GoProcessScanner {
public:
    // `box_dirs`: the box's group directories (every hierarchy on cgroup v1).
    explicit GoProcessScanner(std::vector<std::filesystem::path> box_dirs);
    void scan();
    const std::vector<GoProcess>& found() const { return found_; }

private:
    std::vector<std::filesystem::path> dirs_;
    std::map<std::int64_t, std::string> seen_;  // pid -> the executable it was inspected with
    std::set<std::string> not_go_;              // executables without Go build info (forked workers share one)
    std::vector<GoProcess> found_;
};

// One process, `leaf` the cpu cgroup directory listing it; nullopt when it is
// not a Go program or has ended.
std::optional<GoProcess> inspect_go_process(std::int64_t pid, const std::filesystem::path& leaf);

}  // namespace stand::detect
