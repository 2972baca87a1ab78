// One spawned child: its exit status, signals and the final kill+reap.
//
// The child is only reaped by terminate(): until then an ended child stays a
// zombie, which keeps its pid (and so its process group id) from being
// reused, so terminate() can still SIGKILL what is left of the group safely.
#pragma once

#include <stand/service/process.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <sys/types.h>

namespace stand::host {

class TrackedChild {
public:
    TrackedChild(pid_t pid, bool own_group, std::string output);
    ~TrackedChild();  // terminate()s a child still there
    TrackedChild(const TrackedChild&) = delete;
    TrackedChild& operator=(const TrackedChild&) = delete;

    // STAND_OK, or STAND_OK_NOTHING_TO_DO when it has already ended.
    // Throws Error(INVALID_ARGUMENT) for a bad signal number, Error(IO) otherwise.
    int32_t signal(int signal_number);
    // timeout_ms: 0 polls, < 0 waits forever. Never holds the lock while blocking.
    bool wait(std::int64_t timeout_ms, stand_process_status& status);
    // SIGKILLs the process (its whole group when it has one) and reaps it.
    void terminate() noexcept;
    const std::string& output() const noexcept { return output_; }

private:
    bool ended_locked();  // caller holds mutex_
    void block_until_exit(std::int64_t timeout_ms) const;

    const pid_t pid_;
    const bool own_group_;
    const std::string output_;
    int pidfd_ = -1;  // -1: wait() polls with short sleeps
    std::mutex mutex_;
    bool ended_ = false;
    bool reaped_ = false;
    stand_process_status status_{};
};

}  // namespace stand::host
