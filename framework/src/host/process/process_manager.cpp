#include "host/process/process_manager.hpp"

#include "host/process/launch.hpp"
#include "host/process/spawn_spec.hpp"
#include "host/process/tracked_child.hpp"

#include <stand/cpp/error.hpp>

#include <csignal>
#include <sys/wait.h>

namespace stand::host {

struct ProcessManager::Child : TrackedChild {
    Child(pid_t pid, bool own_group, std::string output, std::string name)
        : TrackedChild(pid, own_group, std::move(output)), name(std::move(name)) {}
    const std::string name;  // argv[0]'s file name, for messages
};

namespace {

using stand::cpp::Error;

// A copy of the child's pointer: callers block on it without holding `mutex`.
template <class Children>
auto find_child(std::mutex& mutex, const Children& children, std::uint64_t handle) {
    std::lock_guard lock(mutex);
    auto it = children.find(handle);
    if (it == children.end()) throw Error(STAND_E_NOT_FOUND, "unknown process handle " + std::to_string(handle));
    return it->second;
}

}  // namespace

ProcessManager::ProcessManager(std::filesystem::path output_dir, BoxResolver boxes)
    : output_dir_(std::move(output_dir)), boxes_(std::move(boxes)) {}

ProcessManager::~ProcessManager() {
    kill_all();
}

std::uint64_t ProcessManager::spawn(const boost::json::object& spec) {
    SpawnPlan plan = parse_spawn_spec(spec, boxes_);
    std::uint64_t handle;
    {
        std::lock_guard lock(mutex_);
        handle = next_handle_++;
    }
    std::string name = std::filesystem::path(plan.argv[0]).filename().string();
    std::filesystem::path output;
    if (plan.output) {
        output = *plan.output;
    } else {
        std::error_code ec;
        std::filesystem::create_directories(output_dir_, ec);
        if (ec) throw Error(STAND_E_IO, "cannot create " + output_dir_.string() + ": " + ec.message());
        output = output_dir_ / ("proc-" + std::to_string(handle) + "-" + (name.empty() ? "process" : name) + ".log");
    }

    std::string output_name = output.string();
    pid_t pid = launch_child(plan, output);
    std::shared_ptr<Child> child;
    try {
        child = std::make_shared<Child>(pid, plan.new_process_group, std::move(output_name), name);
    } catch (...) {
        if (!plan.new_process_group || ::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        throw;
    }
    std::lock_guard lock(mutex_);
    children_.emplace(handle, child);  // should this throw, ~Child kills and reaps it
    return handle;
}

int32_t ProcessManager::signal(std::uint64_t handle, int signal_number) {
    return find_child(mutex_, children_, handle)->signal(signal_number);
}

bool ProcessManager::wait(std::uint64_t handle, std::int64_t timeout_ms, stand_process_status& status) {
    return find_child(mutex_, children_, handle)->wait(timeout_ms, status);
}

void ProcessManager::release(std::uint64_t handle) {
    std::shared_ptr<Child> child;
    {
        std::lock_guard lock(mutex_);
        auto it = children_.find(handle);
        if (it == children_.end()) return;
        child = std::move(it->second);
        children_.erase(it);
    }
    child->terminate();
}

std::string ProcessManager::output_path(std::uint64_t handle) const {
    return find_child(mutex_, children_, handle)->output();
}

std::vector<EndedProcess> ProcessManager::ended() const {
    std::vector<std::shared_ptr<Child>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [handle, child] : children_) all.push_back(child);
    }
    std::vector<EndedProcess> out;
    for (const auto& child : all) {
        stand_process_status status{sizeof(stand_process_status), STAND_PROCESS_RUNNING, 0, 0, 0};
        if (!child->wait(0, status)) continue;
        const bool signaled = status.state == STAND_PROCESS_SIGNALED;
        out.push_back({child->name, status.pid, signaled, signaled ? status.signal : status.exit_code, child->output()});
    }
    return out;
}

// Handles stay valid: a later wait() reports how each child ended.
void ProcessManager::kill_all() {
    std::vector<std::shared_ptr<Child>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [handle, child] : children_) all.push_back(child);
    }
    for (const auto& child : all) child->terminate();
}

}  // namespace stand::host
