#include "detect/go_runtime.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cpu_list.hpp"
#include "box/box_processes.hpp"
#include "detect/go_buildinfo.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace stand::detect {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string link_target(const fs::path& p) {
    std::error_code ec;
    auto t = fs::read_symlink(p, ec);
    return ec ? std::string() : t.string();
}

std::string fixed(double v, int digits = 2) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// Go's atoi32 on GOMAXPROCS: decimal digits only, > 0.
std::optional<unsigned> env_procs(const std::optional<std::string>& text) {
    if (!text || text->empty()) return std::nullopt;
    unsigned n = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
    if (ec != std::errc() || end != text->data() + text->size() || n == 0) return std::nullopt;
    return n;
}

// The last value of `key` in a GODEBUG list "a=1,b=0".
std::optional<std::string> godebug_value(const std::string& list, const std::string& key) {
    std::optional<std::string> value;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto end = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, end - start);
        if (item.starts_with(key + "=")) value = item.substr(key.size() + 1);
        start = end + 1;
    }
    return value;
}

std::optional<std::string> environ_value(const std::string& environ, const std::string& key) {
    std::size_t start = 0;
    while (start < environ.size()) {
        const auto end = std::min(environ.find('\0', start), environ.size());
        if (environ.compare(start, key.size() + 1, key + "=") == 0)
            return environ.substr(start + key.size() + 1, end - start - key.size() - 1);
        start = end + 1;
    }
    return std::nullopt;
}

// The leaf's quota and period: v1 cpu.cfs_quota_us / cpu.cfs_period_us, v2 cpu.max.
void read_quota(const fs::path& leaf, GoProcess& p) {
    if (auto max = box::read_value(leaf / "cpu.max")) {
        unsigned long long period = 0;
        char quota[32] = {0};
        if (std::sscanf(max->c_str(), "%31s %llu", quota, &period) == 2) {
            p.period_us = period;
            if (std::string(quota) != "max") p.quota_us = std::stoull(quota);
        }
        return;
    }
    auto quota = box::read_value(leaf / "cpu.cfs_quota_us");
    auto period = box::read_value(leaf / "cpu.cfs_period_us");
    if (period) p.period_us = std::stoull(*period);
    if (quota && !quota->starts_with("-")) p.quota_us = std::stoull(*quota);
}

bool is_cpu_group(const fs::path& dir) {
    std::error_code ec;
    return fs::exists(dir / "cpu.max", ec) || fs::exists(dir / "cpu.cfs_quota_us", ec);
}

}  // namespace

std::optional<double> GoProcess::visible_vcpu() const {
    if (!quota_us || !period_us || *period_us == 0) return std::nullopt;
    return static_cast<double>(*quota_us) / static_cast<double>(*period_us);
}

json::object GoProcess::to_json() const {
    json::object o{{"pid", pid},
                   {"process", process},
                   {"exe", exe},
                   {"go_version", go_version},
                   {"affinity_cpus", affinity_cpus},
                   {"cgroup", cgroup},
                   {"own_cgroup_namespace", own_cgroup_namespace},
                   {"automaxprocs", automaxprocs}};
    o["gomaxprocs_env"] = gomaxprocs_env ? json::value(*gomaxprocs_env) : json::value(nullptr);
    o["godebug_env"] = godebug_env ? json::value(*godebug_env) : json::value(nullptr);
    o["default_godebug"] = default_godebug;
    o["cpu_quota_us"] = quota_us ? json::value(*quota_us) : json::value(nullptr);
    o["cpu_period_us"] = period_us ? json::value(*period_us) : json::value(nullptr);
    const auto procs = derive_go_procs(*this);
    o["gomaxprocs"] = procs.size;
    o["gomaxprocs_how"] = procs.how;
    return o;
}

GoProcs derive_go_procs(const GoProcess& p) {
    GoProcs out;
    const unsigned cpus = std::max(1u, p.affinity_cpus);
    if (auto n = env_procs(p.gomaxprocs_env)) {
        out.size = *n;
        out.how = "GOMAXPROCS=" + *p.gomaxprocs_env + " in its environment";
        out.fix = "or drop the override";
        return out;
    }
    const auto release = go_release(p.go_version);
    const std::string go = release ? "Go 1." + std::to_string(release->minor) : p.go_version;
    const auto limit = p.visible_vcpu();
    if (p.automaxprocs && limit) {
        out.size = std::max(1u, static_cast<unsigned>(std::floor(*limit)));
        out.size = std::min(out.size, cpus);
        out.sized_by_limit = true;
        out.limit_read = limit;
        out.how = "it links go.uber.org/automaxprocs, which (when called at start) sets floor(" + fixed(*limit) +
                  " vCPU), at least 1";
        return out;
    }
    bool aware = release && release->major == 1 && release->minor >= 25;
    std::string off_by;
    if (aware) {
        // GODEBUG in the environment overrides the binary's defaults.
        auto setting = godebug_value(p.default_godebug, "containermaxprocs");
        if (p.godebug_env)
            if (auto e = godebug_value(*p.godebug_env, "containermaxprocs")) setting = e;
        if (setting && *setting == "0") {
            aware = false;
            off_by = " with containermaxprocs=0";
        }
    }
    if (!aware) {
        out.size = cpus;
        out.how = go + off_by + (off_by.empty() && release && release->minor < 25 ? " (before 1.25)" : "") +
                  " ignores CPU quotas: the " + std::to_string(cpus) + " CPU(s) of its affinity mask";
        out.fix = off_by.empty() ? "or build it with Go >= 1.25 (and a go line >= 1.25 in its go.mod)"
                                 : "or GODEBUG=containermaxprocs=1";
        return out;
    }
    if (!limit) {
        out.size = cpus;
        out.how = go + " sees no CPU limit on its own cgroup" +
                  (p.own_cgroup_namespace ? " (it has its own cgroup namespace: a parent's quota is out of its sight)"
                                          : " (Go reads only the group that holds it, not a parent's quota)") +
                  ": the " + std::to_string(cpus) + " CPU(s) of its affinity mask";
        out.fix = "or put the quota on the group that holds it";
        return out;
    }
    const auto rounded = std::max(2.0, std::ceil(*limit));
    out.size = std::min(cpus, static_cast<unsigned>(rounded));
    out.sized_by_limit = true;
    out.limit_read = limit;
    out.how = go + " read its cgroup's " + fixed(*limit) + " vCPU limit: min(" + std::to_string(cpus) +
              " CPU(s), max(2, ceil(limit))) = " + std::to_string(out.size);
    return out;
}

GoRuntimeVerdict check_go_runtimes(const std::vector<GoProcess>& processes, std::optional<double> box_vcpu,
                                   const std::optional<Throttling>& throttling, const std::string& scope) {
    GoRuntimeVerdict v;
    if (!box_vcpu || !std::isfinite(*box_vcpu)) return v;
    const double whole = std::ceil(*box_vcpu - 1e-9);
    std::string throttled = "the sampler had no throttling counters";
    if (throttling) {
        throttled = throttling->periods == 0
                        ? "the sampler saw no CFS period"
                        : "the box was throttled in " + std::to_string(throttling->throttled_periods) + " of " +
                              std::to_string(throttling->periods) + " CFS periods (" +
                              fixed(100.0 * static_cast<double>(throttling->throttled_periods) /
                                        static_cast<double>(throttling->periods),
                                    1) +
                              " %), " + fixed(static_cast<double>(throttling->throttled_us) / 1e6) + " s in all";
    }
    for (const auto& p : processes) {
        const auto procs = derive_go_procs(p);
        if (static_cast<double>(procs.size) <= whole) continue;
        const std::string who = p.process + " (pid " + std::to_string(p.pid) + ", " + p.go_version + ")";
        const std::string box = fixed(*box_vcpu) + "-vCPU box";
        // Sized by the box's own limit (or a tighter one): only Go's rounding puts it above.
        if (procs.sized_by_limit && procs.limit_read && *procs.limit_read <= *box_vcpu + 1e-9) {
            v.notes.push_back(who + " runs " + std::to_string(procs.size) + " Ps in a " + box + ": " + procs.how +
                              "; Go rounds a limit up and never below 2, so the Ps can use up the quota early in a "
                              "period (" + throttled + ")");
            continue;
        }
        v.findings.push_back(Finding{
            "go-runtime-oversized", scope,
            who + " runs " + std::to_string(procs.size) + " Ps (GOMAXPROCS) in a " + box + ": " + procs.how +
                "; " + throttled + ". Set GOMAXPROCS=" + std::to_string(static_cast<unsigned>(whole)) + " for it, " +
                procs.fix});
    }
    return v;
}

std::optional<GoProcess> inspect_go_process(std::int64_t pid, const fs::path& leaf) {
    const fs::path proc = "/proc/" + std::to_string(pid);
    auto info = read_go_build_info(proc / "exe");
    if (!info) return std::nullopt;
    GoProcess p;
    p.pid = pid;
    p.exe = link_target(proc / "exe");
    p.go_version = info->go_version;
    p.default_godebug = default_godebug(info->modinfo);
    p.automaxprocs = has_dependency(info->modinfo, "go.uber.org/automaxprocs");
    if (auto comm = box::read_value(proc / "comm")) p.process = *comm;
    if (auto environ = box::read_text(proc / "environ")) {
        p.gomaxprocs_env = environ_value(*environ, "GOMAXPROCS");
        p.godebug_env = environ_value(*environ, "GODEBUG");
    }
    if (auto status = box::read_text(proc / "status")) {
        const std::string key = "\nCpus_allowed_list:";
        if (auto at = status->find(key); at != std::string::npos) {
            const auto start = at + key.size();
            const auto line = status->substr(start, status->find('\n', start) - start);
            if (auto set = box::parse_cpu_list(line)) p.affinity_cpus = static_cast<unsigned>(set->size());
        }
    }
    p.cgroup = leaf.string();
    read_quota(leaf, p);
    const std::string own = link_target("/proc/self/ns/cgroup"), theirs = link_target(proc / "ns" / "cgroup");
    p.own_cgroup_namespace = !own.empty() && !theirs.empty() && own != theirs;
    return p;
}

GoProcessScanner::GoProcessScanner(std::vector<fs::path> box_dirs) : dirs_(std::move(box_dirs)) {}

void GoProcessScanner::scan() {
    for (const auto& dir : box::with_subgroups(dirs_)) {
        if (!is_cpu_group(dir)) continue;  // v1: only the cpu hierarchy says which quota applies
        for (pid_t pid : box::read_procs(dir)) {
            // A child seen between fork and exec is looked at again once it runs its own program.
            const std::string exe = link_target("/proc/" + std::to_string(pid) + "/exe");
            auto [it, fresh] = seen_.try_emplace(pid, exe);
            if (!fresh && it->second == exe) continue;
            it->second = exe;
            if (exe.empty() || not_go_.contains(exe)) continue;
            if (auto p = inspect_go_process(pid, dir)) found_.push_back(std::move(*p));
            else if (std::error_code ec; fs::exists("/proc/" + std::to_string(pid), ec))
                not_go_.insert(exe);  // still running, so it was read: no Go build info
        }
    }
}

}  // namespace stand::detect
