#include "fleetrun/remote_backend.hpp"

#include "fleet/remote_process.hpp"
#include "fleet/remote_stand.hpp"
#include "fleet/wall_clock.hpp"
#include "target/backend_process.hpp"

#include <boost/asio/ip/address.hpp>

#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace stand::fleetrun {
namespace {

std::string listen_on(const std::string& address) {
    return (address.find(':') != std::string::npos ? "[" + address + "]" : address) + ":0";
}

}  // namespace

RemoteBackend::RemoteBackend(const fleet::SshSession& session, const RemoteBackendOptions& options,
                             std::chrono::milliseconds ready_within)
    : session_(session), options_(options) {
    const auto& target = session.target();
    boost::system::error_code ec;
    boost::asio::ip::make_address(target.address, ec);
    if (ec)
        throw std::runtime_error("backend host " + target.url() +
                                 ": its address must be an IP literal (the system under test is given it as its upstream)");
    root_ = ".stand/backends/backend-" + std::to_string(fleet::wall_ns()) + "-" + std::to_string(::getpid());
    if (const auto r = session.run({"getconf", "CLK_TCK"}, {}, std::chrono::seconds(30)); r.exit_code == 0)
        ticks_per_second_ = std::atol(r.out.c_str()) > 0 ? std::atol(r.out.c_str()) : 100;
    streamer_ = std::thread([this] { stream_output(); });
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, ready_within, [this] { return ready_ || ended_; });
    if (!ready_) {
        const std::string output = last_output_;
        const bool ended = ended_;
        lock.unlock();
        signal("KILL");
        await_end(std::chrono::seconds(10));
        streamer_.join();
        throw std::runtime_error("backend host " + target.url() + ": its stand backend " +
                                 (ended ? std::string("ended before it was ready") :
                                           "printed no ready line in " + std::to_string(ready_within.count()) + " ms") +
                                 (output.empty() ? std::string() : ": " + output));
    }
    lock.unlock();
    std::tie(host_, port_) = target::split_host_port(std::string(info_.at("listen").as_string()), "backend listen");
    std::tie(control_host_, control_port_) =
        target::split_host_port(std::string(info_.at("control").as_string()), "backend control");
    info_["host"] = target.url();
}

void RemoteBackend::stream_output() {
    std::ofstream log(options_.log_file, std::ios::app);
    const std::vector<std::string> argv{fleet::install_dir() + "/bin/stand", "backend", "--allow-remote",
                                        "--listen", listen_on(session_.target().address),
                                        "--control", listen_on(session_.target().address),
                                        "--body-bytes", std::to_string(options_.body_bytes),
                                        "--threads", std::to_string(options_.threads), "--ws-path", options_.ws_path};
    const auto on_line = [&](const std::string& line) -> std::optional<std::string> {
        if (const long pid = fleet::remote_pid_of(line)) {
            pid_.store(pid);
            return std::nullopt;
        }
        log << line << "\n" << std::flush;
        std::lock_guard lock(mutex_);
        last_output_ = line.substr(0, 600);
        if (!ready_)
            if (auto ready = target::backend_ready_line(line)) {
                info_ = std::move(*ready);
                ready_ = true;
                changed_.notify_all();
            }
        return std::nullopt;
    };
    try {
        session_.stream_answering(fleet::tied_to_connection(root_ + "/pid", argv), on_line);
    } catch (const std::exception& e) {
        log << "stand: " << e.what() << "\n";
        std::lock_guard lock(mutex_);
        last_output_ = e.what();
    }
    std::lock_guard lock(mutex_);
    ended_ = true;
    changed_.notify_all();
}

void RemoteBackend::signal(const char* name) const {
    const long pid = pid_.load();
    if (pid <= 0) return;
    try {
        session_.run({"kill", std::string("-") + name, std::to_string(pid)}, {}, std::chrono::seconds(30));
    } catch (const std::exception&) {
        // The connection is gone: the backend's watcher ended it with the connection.
    }
}

bool RemoteBackend::await_end(std::chrono::seconds within) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, within, [this] { return ended_; });
}

RemoteBackend::~RemoteBackend() {
    signal("TERM");
    if (!await_end(std::chrono::seconds(5))) signal("KILL");
    streamer_.join();
    try {
        session_.run({"rm", "-rf", root_}, {}, std::chrono::seconds(30));
    } catch (const std::exception&) {
        // Only its pid file is there.
    }
}

target::BackendStats RemoteBackend::stats() const { return target::backend_stats_at(control_host_, control_port_); }

std::optional<double> RemoteBackend::cpu_seconds() const {
    const long pid = pid_.load();
    if (pid <= 0) return std::nullopt;
    try {
        const auto r = session_.run({"cat", "/proc/" + std::to_string(pid) + "/stat"}, {}, std::chrono::seconds(30));
        if (r.exit_code != 0) return std::nullopt;
        return target::cpu_seconds_of_stat(r.out, ticks_per_second_);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace stand::fleetrun
