// The host-built backend (`stand backend`) run as a child process for a
// repetition, in its own cgroup group, so proxies have a known upstream whose
// accepted connections can be counted.
#pragma once

#include "target/backend.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stand::host {
class ProcessManager;
}

namespace stand::target {

struct BackendOptions {
    std::filesystem::path stand_binary = "/proc/self/exe";
    std::filesystem::path log_file;           // the backend's stdout and stderr
    std::vector<std::filesystem::path> box;   // cgroup dirs to join; empty: none
    std::uint32_t body_bytes = 64;
    std::uint32_t threads = 1;
    std::string ws_path = "/ws";
};

class BackendProcess final : public Backend {
public:
    // Starts the backend and waits up to `ready_within` for its ready line.
    // Throws std::runtime_error with the backend's output when it does not come.
    BackendProcess(const BackendOptions& options, std::chrono::milliseconds ready_within);
    ~BackendProcess() override;  // SIGTERM, then SIGKILL after 5 s
    BackendProcess(const BackendProcess&) = delete;
    BackendProcess& operator=(const BackendProcess&) = delete;

    const std::string& host() const override { return host_; }
    std::uint16_t port() const override { return port_; }
    const std::string& ws_path() const override { return options_.ws_path; }
    int pid() const;
    const boost::json::object& info() const override { return info_; }
    BackendStats stats() const override;
    // From /proc/PID/stat.
    std::optional<double> cpu_seconds() const override;

private:
    BackendOptions options_;
    std::unique_ptr<host::ProcessManager> processes_;
    std::uint64_t handle_ = 0;
    boost::json::object info_;
    std::string host_;
    std::uint16_t port_ = 0;
    std::string control_host_;
    std::uint16_t control_port_ = 0;
};

// "127.0.0.1:8080", "[::1]:8080", "localhost:80" → address, port (no DNS);
// throws std::invalid_argument naming `what`.
std::pair<std::string, std::uint16_t> split_host_port(const std::string& text, const std::string& what);

}  // namespace stand::target
