// Polls a plugin's readiness request (stand.lifecycle/1 readiness()) until
// it answers with an expected status and every "also" check succeeds in the
// same round: the host, not the plugin, decides when a system is ready and
// times it. A process the plugin still holds that ends stops the wait at once.
#pragma once

#include "host/http/http_service.hpp"
#include "host/process/ended_process.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <vector>

namespace stand::target {

struct ReadinessTimeout : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A process of the system ended while readiness was awaited.
struct ReadinessExited : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ReadyResult {
    double seconds = 0;     // from `origin` to the end of the first round that fully succeeded
    std::uint32_t tries = 0;  // rounds
};

// The processes of the system that have ended (host::ProcessManager::ended(),
// or the plugin worker's answer); asked once per round.
using ExitWatch = std::function<std::vector<host::EndedProcess>()>;

// Throws ReadinessTimeout naming the item still failing (the main URL or an
// "also" entry), the rounds and its last answer or error when `deadline`
// passes; ReadinessExited with describe_exit() of the first ended process;
// std::invalid_argument for a malformed readiness object; std::runtime_error
// when `cancel` is set.
ReadyResult poll_until_ready(host::HttpService& http, const boost::json::object& readiness,
                             std::chrono::steady_clock::time_point origin, std::chrono::milliseconds interval,
                             std::chrono::milliseconds per_try_timeout, std::chrono::steady_clock::time_point deadline,
                             const std::atomic<bool>& cancel, const ExitWatch& exits = {});

}  // namespace stand::target
