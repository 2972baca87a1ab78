// The scenario's backend on a fleet host ("backend": {"host": URL}): the
// host's pushed `stand backend`, its data and control listeners on the
// host's address, so that the system under test here reaches it over a real
// link and never shares this machine's CPUs with it. Started once per
// repetition as the local backend is (fresh counters), its output streamed
// into the repetition's backend log; its counters come from its control port,
// its CPU from its /proc/PID/stat through the session. It runs in no box on
// the host: its CPU is the host's to give.
#pragma once

#include "fleet/ssh_session.hpp"
#include "target/backend.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

namespace stand::fleetrun {

struct RemoteBackendOptions {
    std::filesystem::path log_file;  // here: its output
    std::uint32_t body_bytes = 64;
    std::uint32_t threads = 1;
    std::string ws_path = "/ws";
};

class RemoteBackend final : public target::Backend {
public:
    // Starts it and waits up to `ready_within` for its ready line. Throws
    // std::runtime_error naming the host (an address that is not an IP
    // literal, no ready line and its last output). `session` stays the
    // caller's and outlives this.
    RemoteBackend(const fleet::SshSession& session, const RemoteBackendOptions& options,
                  std::chrono::milliseconds ready_within);
    // SIGTERM there, SIGKILL after 5 s; its files on the host removed.
    ~RemoteBackend() override;
    RemoteBackend(const RemoteBackend&) = delete;
    RemoteBackend& operator=(const RemoteBackend&) = delete;

    const std::string& host() const override { return host_; }
    std::uint16_t port() const override { return port_; }
    const std::string& ws_path() const override { return options_.ws_path; }
    const boost::json::object& info() const override { return info_; }
    target::BackendStats stats() const override;
    std::optional<double> cpu_seconds() const override;

private:
    void stream_output();
    void signal(const char* name) const;
    bool await_end(std::chrono::seconds within);

    const fleet::SshSession& session_;
    RemoteBackendOptions options_;
    std::string root_;  // its directory on the host, relative to the home
    long ticks_per_second_ = 100;
    boost::json::object info_;
    std::string host_, control_host_;
    std::uint16_t port_ = 0, control_port_ = 0;
    std::atomic<long> pid_{0};

    std::mutex mutex_;
    std::condition_variable changed_;
    bool ready_ = false, ended_ = false;
    std::string last_output_;
    std::thread streamer_;
};

}  // namespace stand::fleetrun
