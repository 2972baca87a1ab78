#include "host/plugin_host.hpp"

#include "rundir/run_directory.hpp"

#include "text/secrets.hpp"

#include <stand/cpp/error.hpp>

#include <iostream>
#include <sys/stat.h>

namespace stand::host {
namespace {

const char* level_name(int level) {
    if (level >= STAND_LOG_ERROR) return "error";
    if (level >= STAND_LOG_WARNING) return "warning";
    if (level >= STAND_LOG_INFO) return "info";
    return "debug";
}

void STAND_ABI log_thunk(const stand_host* host, int32_t level, const char* message) {
    try {
        PluginHost::from(host).log(level, message ? message : "");
    } catch (...) {
    }
}

const void* STAND_ABI get_service_thunk(const stand_host*, const char* id) { return id ? find_service(id) : nullptr; }

// `perms` only when it makes the folder: an existing one keeps its mode, as
// a plugin may have opened it for a process that runs as another user (the
// panel kit lets PostgreSQL reach its folder in the data dir). Resetting it
// on every data_dir() call locked that process out mid-run.
void create_directory(const std::filesystem::path& dir, std::filesystem::perms perms) {
    std::error_code ec;
    const bool made = std::filesystem::create_directories(dir, ec);
    if (ec) throw cpp::Error(STAND_E_IO, "cannot create directory " + dir.string() + ": " + ec.message());
    if (made) std::filesystem::permissions(dir, perms, ec);
}

}  // namespace

PluginHost::PluginHost(std::string plugin_id, HostConfig config)
    : plugin_id_(std::move(plugin_id)), config_(std::move(config)) {
    table_.struct_size = sizeof(stand_host);
    table_.abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR};
    table_.name = "stand";
    table_.version = STAND_HOST_VERSION;
    table_.host_data = this;
    table_.log = &log_thunk;
    table_.get_service = &get_service_thunk;

    HttpPolicy policy;
    policy.allow_remote_targets = config_.allow_remote_targets;
    policy.record_exchanges = config_.record_http_exchanges;
    policy.cancelled = [this] { return cancelled(); };
    http_ = std::make_unique<HttpService>(std::move(policy));
    auto boxes = config_.boxes;
    processes_ = std::make_unique<ProcessManager>(
        config_.run_dir / "logs" / plugin_id_, [boxes](const std::string& name) {
            auto it = boxes.find(name);
            if (it == boxes.end()) {
                std::string known;
                for (const auto& [n, _] : boxes) known += (known.empty() ? "" : ", ") + n;
                throw cpp::Error(STAND_E_INVALID_ARGUMENT, "unknown box '" + name + "' (this run has: " +
                                                               (known.empty() ? std::string("none") : known) + ")");
            }
            return it->second;
        });
}

PluginHost::~PluginHost() = default;

std::filesystem::path PluginHost::run_dir() const {
    create_directory(config_.run_dir, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                          std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                          std::filesystem::perms::others_exec);
    return std::filesystem::absolute(config_.run_dir);
}

std::filesystem::path PluginHost::data_dir() const {
    auto dir = rundir::RunDirectory::plugin_data_dir(run_dir(), plugin_id_);
    create_directory(dir, std::filesystem::perms::owner_all);
    return dir;
}

void PluginHost::log(int level, const std::string& message) const {
    const std::string line = text::secrets().scrub(message);
    if (config_.log) {
        config_.log(level, plugin_id_, line);
        return;
    }
    std::cerr << "[" << plugin_id_ << "] " << level_name(level) << ": " << line << "\n";
}

void PluginHost::mark_secret(std::string_view value) const {
    if (value.size() < text::Secrets::kMinLength) return;
    if (auto why = text::secrets().add(value); !why.empty()) {
        // An address or a word is named, to show the adapter's author what was marked; a
        // number is not (a PIN of five digits is still someone's secret, if not one to hide).
        const bool number = value.find_first_not_of("0123456789") == std::string_view::npos;
        log(STAND_LOG_WARNING, "stand.secrets/1: " +
                                   (number ? "a value of " + std::to_string(value.size()) + " digits"
                                           : "\"" + std::string(value) + "\"") +
                                   " is " + why +
                                   ", not a secret: it is not hidden (hiding it would erase it wherever it is written)");
        return;
    }
    if (config_.secret) config_.secret(std::string(value));
}

void PluginHost::report_progress(double fraction, const std::string& message) const {
    if (config_.progress) config_.progress(plugin_id_, fraction, message);
}

}  // namespace stand::host
