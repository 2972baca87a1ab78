// A proxy's own server process, run through the host's process service (in
// a box when the plugin has one), with the graceful stop each proxy expects.
#pragma once

#include <stand/cpp/host.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace stand_proxy_kit {

class ServerProcess {
public:
    // `label` starts every error ("nginx: already running"); `graceful` is
    // the signal that lets the proxy finish requests in flight, sent by
    // stop() before SIGKILL after `grace_ms`.
    ServerProcess(std::string label, int graceful, std::int64_t grace_ms = 10000)
        : label_(std::move(label)), graceful_(graceful), grace_ms_(grace_ms) {}

    bool running() const { return process_ != nullptr; }

    // Spawns `spec` (sdk service/process.h), with "box" added when `box` is
    // not empty. Throws stand::cpp::Error(STAND_E_BAD_STATE) when running.
    void start(const stand::cpp::Host& host, boost::json::object spec, const std::string& box);

    // STAND_OK, or STAND_OK_NOTHING_TO_DO when not running.
    stand_result stop();

    // Throw stand::cpp::Error(STAND_E_BAD_STATE): "<label>: already running",
    // "<label>: not running", "<label>: stop before <what>".
    void expect_not_running() const;
    void expect_running() const;
    void expect_stopped(const std::string& what) const;

private:
    std::string label_;
    int graceful_;
    std::int64_t grace_ms_;
    std::unique_ptr<stand::cpp::Process> process_;
};

// wipe(): removes the plugin's data dir; throws stand::cpp::Error(STAND_E_IO)
// naming it.
void remove_data_dir(const std::filesystem::path& dir, const std::string& label);

}  // namespace stand_proxy_kit
