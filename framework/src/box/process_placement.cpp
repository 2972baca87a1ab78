#include "box/process_placement.hpp"

#include "box/cgroup_fs.hpp"

#include <sched.h>

#include <sstream>

namespace stand::box {

namespace fs = std::filesystem;

std::vector<fs::path> groups_of(std::string_view text, const CgroupLayout& layout) {
    std::vector<fs::path> dirs;
    auto add = [&](const fs::path& d) {
        for (const auto& x : dirs)
            if (x == d) return;
        dirs.push_back(d);
    };
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        const auto c1 = line.find(':');
        const auto c2 = c1 == std::string::npos ? std::string::npos : line.find(':', c1 + 1);
        if (c2 == std::string::npos) continue;
        const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
        const std::string path = line.substr(c2 + 1);
        const fs::path relative = fs::path(path).relative_path();
        auto under = [&](const fs::path& root) { return relative.empty() ? root : root / relative; };
        if (controllers.empty()) {
            if (layout.backend == CgroupVersion::v2 && layout.v2_root) add(under(*layout.v2_root));
            continue;
        }
        std::istringstream names(controllers);
        for (std::string name; std::getline(names, name, ',');)
            if (auto it = layout.v1.find(name); it != layout.v1.end()) {
                add(under(it->second));
                break;  // co-mounted controllers share one directory
            }
    }
    return dirs;
}

ProcessPlacement::ProcessPlacement(pid_t pid, const std::vector<fs::path>& into) : pid_(pid) {
    const auto layout = detect_cgroup_layout();
    const auto text = read_text("/proc/" + std::to_string(pid) + "/cgroup");
    if (!text) throw BoxError("cannot read /proc/" + std::to_string(pid) + "/cgroup: the process is gone");
    origin_ = groups_of(*text, layout);
    try {
        for (const auto& dir : into) write_text(dir / "cgroup.procs", std::to_string(pid));
    } catch (const BoxError& e) {
        move_back();
        const int policy = ::sched_getscheduler(pid);
        if (policy == SCHED_FIFO || policy == SCHED_RR)
            throw BoxError(std::string(e.what()) +
                           " (the process runs under a real-time policy, SCHED_FIFO or SCHED_RR: cgroup v1's cpu "
                           "controller refuses real-time tasks in a group without cpu.rt_runtime_us; run stand "
                           "without chrt)");
        throw;
    }
}

ProcessPlacement::~ProcessPlacement() { move_back(); }

void ProcessPlacement::move_back() noexcept {
    for (const auto& dir : origin_) {
        try {
            write_text(dir / "cgroup.procs", std::to_string(pid_));
        } catch (...) {
            // The process may have died; a box destroy kills what is left anyway.
        }
    }
}

}  // namespace stand::box
