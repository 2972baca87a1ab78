// Shared by the box and sampler tests: the machine's cgroup layout, unique
// run ids, children spawned into a box through ProcessManager.
#pragma once

#include "box/box.hpp"
#include "box/cgroup_layout.hpp"
#include "host/process/process_manager.hpp"

#include "eventually.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <unistd.h>

namespace stand::test {

inline const box::CgroupLayout& cgroup_layout() {
    static const box::CgroupLayout layout = box::detect_cgroup_layout();
    return layout;
}

// False (with a warning) when this machine offers no writable cgroups.
inline bool cgroups_usable() {
    const auto& l = cgroup_layout();
    if (!l.backend || ::geteuid() != 0) {
        WARN_MESSAGE(false, "no usable cgroups here (" << l.describe() << "): test skipped");
        return false;
    }
    return true;
}

inline std::string unique_run_id() {
    static std::atomic<int> counter{0};
    return "test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// A ProcessManager whose only box is `b`.
struct BoxedProcesses {
    std::filesystem::path logs;
    host::ProcessManager pm;
    explicit BoxedProcesses(const box::Box& b)
        : logs(std::filesystem::temp_directory_path() / ("stand-box-test-" + std::to_string(::getpid()))),
          pm(logs, [dirs = b.dirs(), name = b.plan().name](const std::string& want) {
              if (want != name) throw std::runtime_error("unknown box " + want);
              return dirs;
          }) {}
    ~BoxedProcesses() {
        pm.kill_all();
        std::error_code ec;
        std::filesystem::remove_all(logs, ec);
    }
    struct Child {
        std::uint64_t handle;
        pid_t pid;
    };
    // Starts `sh -c script` in the box.
    Child shell(const std::string& script, const std::string& box_name) {
        boost::json::object spec{{"argv", boost::json::array{"/bin/sh", "-c", script}}, {"box", box_name}};
        auto h = pm.spawn(spec);
        stand_process_status st{};
        pm.wait(h, 0, st);
        return {h, static_cast<pid_t>(st.pid)};
    }
    // Waits for the child to end; true when it was killed by a signal.
    bool killed(const Child& c, std::int64_t ms = 3000) {
        stand_process_status st{};
        return pm.wait(c.handle, ms, st) && st.state == STAND_PROCESS_SIGNALED;
    }
};

}  // namespace stand::test
