// probe kit: a probe's answer as JSON (probe_result.hpp).
#include <stand/kits/probe/probe_result.hpp>

namespace stand_probe_kit {

boost::json::object ProbeResult::to_json() const {
    boost::json::object out{{"metrics", metrics}};
    if (latency_histogram_ns) out["latency_histogram_ns"] = *latency_histogram_ns;
    out["facts"] = facts;
    out["notes"] = notes;
    return out;
}

}  // namespace stand_probe_kit
