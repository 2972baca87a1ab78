// The stand_host handed to one plugin: its identity, log, and the services it
// may look up. One PluginHost per plugin instance, so every log line, HTTP
// call and child process is attributed to the plugin that caused it.
#pragma once

#include "host/http/http_service.hpp"
#include "host/process/process_manager.hpp"

#include <stand/host.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stand::host {

using LogFunction = std::function<void(int level, const std::string& plugin_id, const std::string& message)>;
using ProgressFunction = std::function<void(const std::string& plugin_id, double fraction, const std::string& message)>;
using SecretFunction = std::function<void(const std::string& secret)>;

struct HostConfig {
    std::filesystem::path run_dir;  // created on first use
    bool allow_remote_targets = false;
    bool record_http_exchanges = false;  // see HttpPolicy::record_exchanges
    LogFunction log;                // default: stderr
    ProgressFunction progress;      // default: ignore
    SecretFunction secret;          // told each value a plugin marks (stand.secrets/1); default: ignore
    // Named groups ("measured", "client") -> cgroup directories to join.
    std::map<std::string, std::vector<std::filesystem::path>> boxes;
};

class PluginHost {
public:
    PluginHost(std::string plugin_id, HostConfig config);
    ~PluginHost();
    PluginHost(const PluginHost&) = delete;
    PluginHost& operator=(const PluginHost&) = delete;

    const stand_host* get() const noexcept { return &table_; }
    static PluginHost& from(const stand_host* host) { return *static_cast<PluginHost*>(host->host_data); }

    const std::string& plugin_id() const noexcept { return plugin_id_; }
    const HostConfig& config() const noexcept { return config_; }
    std::filesystem::path run_dir() const;   // creates it
    std::filesystem::path data_dir() const;  // <run_dir>/data/<plugin id>, mode 0700, creates it

    // The message with every known secret scrubbed (text/secrets.hpp).
    void log(int level, const std::string& message) const;
    // Adds `value` to the process's secrets and tells config().secret; a
    // value that is not secret-shaped (text::Secrets::not_secret_shaped) is
    // logged as a warning instead, and neither.
    void mark_secret(std::string_view value) const;
    void report_progress(double fraction, const std::string& message) const;
    void cancel() noexcept { cancelled_.store(true); }
    bool cancelled() const noexcept { return cancelled_.load(); }

    HttpService& http() noexcept { return *http_; }
    ProcessManager& processes() noexcept { return *processes_; }

private:
    std::string plugin_id_;
    HostConfig config_;
    stand_host table_{};
    std::atomic<bool> cancelled_{false};
    std::unique_ptr<HttpService> http_;
    std::unique_ptr<ProcessManager> processes_;
};

// The service table for `id` (see sdk service/*.h), or nullptr.
const void* find_service(const char* id);

}  // namespace stand::host
