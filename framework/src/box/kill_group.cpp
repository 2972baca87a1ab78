#include "box/kill_group.hpp"

#include "box/cgroup_fs.hpp"

#include <algorithm>
#include <csignal>
#include <thread>
#include <unistd.h>

namespace stand::box {

std::vector<pid_t> group_pids(const std::vector<std::filesystem::path>& dirs) {
    std::vector<pid_t> all;
    for (const auto& dir : dirs)
        for (pid_t p : read_procs(dir))
            if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
    return all;
}

bool kill_group(const std::vector<std::filesystem::path>& dirs, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (const auto& dir : dirs) {
        if (::access((dir / "cgroup.kill").c_str(), W_OK) != 0) continue;
        try {
            write_text(dir / "cgroup.kill", "1");
        } catch (const BoxError&) {
            // the SIGKILL loop below does the same, only slower
        }
    }
    for (;;) {
        auto pids = group_pids(dirs);
        if (pids.empty()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        const pid_t self = ::getpid();
        for (pid_t p : pids)
            if (p != self) ::kill(p, SIGKILL);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace stand::box
