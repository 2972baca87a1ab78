// Polls a plugin's readiness request (stand.lifecycle/1 readiness()) until
// it answers with an expected status: the host, not the plugin, decides when
// a system is ready and times it.
#pragma once

#include "host/http/http_service.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>

namespace stand::scenario {

struct ReadinessTimeout : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ReadyResult {
    double seconds = 0;     // from `origin` to the first expected answer
    std::uint32_t tries = 0;
};

// Throws ReadinessTimeout naming the URL, the tries and the last answer or
// error when `deadline` passes; std::runtime_error when `cancel` is set.
ReadyResult poll_until_ready(host::HttpService& http, const boost::json::object& readiness,
                             std::chrono::steady_clock::time_point origin, std::chrono::milliseconds interval,
                             std::chrono::milliseconds per_try_timeout, std::chrono::steady_clock::time_point deadline,
                             const std::atomic<bool>& cancel);

}  // namespace stand::scenario
