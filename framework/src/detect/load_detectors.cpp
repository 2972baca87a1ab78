#include "detect/load_detectors.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace stand::detect {
namespace {

std::string percent(double part, double whole) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
    return buf;
}

}  // namespace

// An open-model run collapses when the system stops keeping up: the achieved
// rate falls short of the offered one while the requests in flight plus the
// backlog keep climbing (a closed model would have slowed down instead).
static std::optional<std::string> check_collapse(const load::LoadResult& r) {
    const auto seconds = static_cast<std::size_t>(r.window_s);
    if (seconds < 3 || r.per_second.size() < seconds || r.rate <= 0) return std::nullopt;
    const double achieved = static_cast<double>(r.completed) / r.window_s;
    if (achieved >= 0.95 * r.rate) return std::nullopt;
    const std::size_t third = seconds / 3;
    auto mean_queue = [&](std::size_t from, std::size_t to) {
        double sum = 0;
        for (std::size_t i = from; i < to; ++i)
            sum += static_cast<double>(r.per_second[i].in_flight_max + r.per_second[i].backlog_max);
        return sum / static_cast<double>(to - from);
    };
    const double first = mean_queue(0, third);
    const double last = mean_queue(seconds - third, seconds);
    if (last < 2 * std::max(first, 1.0)) return std::nullopt;
    char buf[320];
    std::snprintf(buf, sizeof(buf),
                  "collapse: offered %.0f/s, achieved %.0f/s, and the requests in flight plus queued climbed from %.1f "
                  "to %.1f (first to last third of the run): the latencies measure a growing queue; the closed-model "
                  "ceiling is the capacity",
                  r.rate, achieved, first, last);
    return std::string(buf);
}

std::vector<Finding> check_load(const load::LoadResult& r, const std::string& scope) {
    std::vector<Finding> found;
    if (r.generator_saturated) {
        char buf[240];
        std::snprintf(buf, sizeof(buf),
                      "the load generator used %.2f cores with %u threads (its threads ran %.0f %% and waited for a CPU "
                      "%.0f %% of the time): the limit may be the client, not the system",
                      r.cpu.cores_used, r.threads, r.cpu.percent_of_threads, r.cpu.percent_waiting);
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
        if (auto collapse = check_collapse(r)) found.push_back({"open-model-collapse", scope, *collapse});
    }
    return found;
}

}  // namespace stand::detect
