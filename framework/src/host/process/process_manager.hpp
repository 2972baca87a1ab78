// The host's process spawner behind stand.process/1 (see sdk service/process.h
// for the spawn spec). fork+exec so a child can be put into cgroups before it
// runs a single instruction of its own; every child is tracked and killed
// when the manager is destroyed.
#pragma once

#include "host/process/ended_process.hpp"

#include <stand/service/process.h>

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace stand::host {

// Maps a box name ("measured", "client") to the cgroup directories a child
// must join (one per v1 controller hierarchy, or one v2 directory). Throws
// stand::cpp::Error(STAND_E_INVALID_ARGUMENT) for an unknown name.
using BoxResolver = std::function<std::vector<std::filesystem::path>(const std::string& box)>;

class ProcessManager {
public:
    ProcessManager(std::filesystem::path output_dir, BoxResolver boxes);
    ~ProcessManager();  // SIGKILLs and reaps every child still running
    ProcessManager(const ProcessManager&) = delete;
    ProcessManager& operator=(const ProcessManager&) = delete;

    // Throws stand::cpp::Error with the codes of sdk service/process.h.
    std::uint64_t spawn(const boost::json::object& spec);
    // Returns STAND_OK, STAND_OK_NOTHING_TO_DO (already ended) or throws NOT_FOUND.
    int32_t signal(std::uint64_t handle, int signal_number);
    // True when ended (status filled); false on timeout (state RUNNING).
    bool wait(std::uint64_t handle, std::int64_t timeout_ms, stand_process_status& status);
    void release(std::uint64_t handle);
    std::string output_path(std::uint64_t handle) const;
    // The children not yet released that have ended, in spawn order: servers
    // that died while the plugin still counted on them.
    std::vector<EndedProcess> ended() const;
    // Kills and reaps all children (also used on SIGINT/SIGTERM paths).
    void kill_all();

private:
    struct Child;
    std::filesystem::path output_dir_;
    BoxResolver boxes_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, std::shared_ptr<Child>> children_;
    std::uint64_t next_handle_ = 1;
};

}  // namespace stand::host
