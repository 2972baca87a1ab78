#include "detect/load_detectors.hpp"

#include <cstdio>

namespace stand::detect {
namespace {

std::string percent(double part, double whole) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
    return buf;
}

}  // namespace

std::vector<Finding> check_load(const load::LoadResult& r, const std::string& scope) {
    std::vector<Finding> found;
    if (r.generator_saturated) {
        char buf[160];
        std::snprintf(buf, sizeof(buf), "the load generator used %.2f cores with %u threads: the limit may be the client, not the system",
                      r.cpu.cores_used, r.threads);
        found.push_back({"generator-saturated", scope, buf});
    }
    std::uint64_t answered = 0, ok = 0, limited = 0;
    for (const auto& [status, count] : r.status_counts) {
        answered += count;
        if (status >= 200 && status < 300) ok += count;
        if (status == 429) limited += count;
    }
    if (answered > 0 && limited * 2 > answered)
        found.push_back({"mostly-429", scope,
                         percent(static_cast<double>(limited), static_cast<double>(answered)) +
                             " of responses were 429: this measures a rate limiter, not the service"});
    else if (answered > 0 && ok * 2 < answered)
        found.push_back({"mostly-non-2xx", scope,
                         percent(static_cast<double>(answered - ok), static_cast<double>(answered)) +
                             " of responses were not 2xx"});
    if (r.model == load::Model::open && r.offered > 0) {
        bool behind = r.late * 100 > r.sent || r.unsent > 0;
        if (behind)
            found.push_back({"open-model-behind", scope,
                             std::to_string(r.late) + " of " + std::to_string(r.sent) + " requests were sent late and " +
                                 std::to_string(r.unsent) + " of " + std::to_string(r.offered) +
                                 " offered were never sent (max backlog " + std::to_string(r.max_queue) +
                                 "): the offered rate was not achieved"});
    }
    return found;
}

}  // namespace stand::detect
