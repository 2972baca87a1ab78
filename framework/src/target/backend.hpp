// The scenario's backend as a repetition sees it, wherever it runs: a child
// process here (target/backend_process.hpp) or `stand backend` on a fleet
// host (fleetrun/remote_backend.hpp). Called from the repetition's thread.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace stand::target {

// Counters of the backend's data port (see `stand backend --help`).
struct BackendStats {
    std::uint64_t accepted = 0, open = 0, requests = 0, ws_sessions = 0, ws_messages = 0;
};

class Backend {
public:
    virtual ~Backend() = default;
    // The address and port the system under test reaches its data port at.
    virtual const std::string& host() const = 0;
    virtual std::uint16_t port() const = 0;
    virtual const std::string& ws_path() const = 0;
    // Its ready line ({"listen","control","body_bytes","threads","ws_path","pid"}),
    // with "host" (the fleet host's URL) when it runs on one.
    virtual const boost::json::object& info() const = 0;
    // GET /stats on the control port. Throws std::runtime_error naming the
    // address when the backend does not answer (it died: a finding, not a crash).
    virtual BackendStats stats() const = 0;
    // The backend process's user + system CPU so far (all threads); nullopt
    // when it cannot be read.
    virtual std::optional<double> cpu_seconds() const = 0;
};

// `stand backend`'s ready line: `line` when it is a JSON object with "listen".
std::optional<boost::json::object> backend_ready_line(const std::string& line);

// GET /stats at a backend's control address; throws as Backend::stats does.
BackendStats backend_stats_at(const std::string& host, std::uint16_t port);

// User + system seconds from the text of /proc/PID/stat and the machine's
// clock ticks per second; nullopt when the text is not such a file.
std::optional<double> cpu_seconds_of_stat(const std::string& stat_text, long ticks_per_second);

}  // namespace stand::target
