// What a probe's run() answers, as ProbePlugin's run_hook() returns it and
// the probe's measuring code builds it.
#pragma once

#include <boost/json.hpp>

#include <optional>

namespace stand_probe_kit {

// What run() answers (sdk stand/ext/probe.h): metrics (finite numbers),
// the latency histogram when the probe timed single operations, facts and
// notes, written in that order.
struct ProbeResult {
    boost::json::object metrics;
    std::optional<boost::json::array> latency_histogram_ns;  // [value_ns, count] pairs, ascending
    boost::json::object facts;
    boost::json::array notes;

    boost::json::object to_json() const;
};

}  // namespace stand_probe_kit
