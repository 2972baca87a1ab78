#include "scenario/steps/capacity_admin.hpp"

#include "stats/descriptive.hpp"

#include <stand/result.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace stand::scenario::steps {

namespace json = boost::json;

std::map<std::string, double> run_admin_create_level(RepContext& ctx, const Step& s, double rate, Seconds dwell,
                                                     std::size_t level, std::string& unanswered) {
    constexpr auto kLate = std::chrono::milliseconds(1);
    const auto interval = std::chrono::duration<double>(1.0 / rate);
    const auto calls = static_cast<std::size_t>(std::max(1.0, rate * dwell.count()));
    std::vector<double> latency_ms;
    std::vector<std::string> created;
    std::size_t failed = 0, late = 0, answered = 0;
    std::string first_error;
    const auto t0 = RepClock::now();
    for (std::size_t i = 0; i < calls; ++i) {
        ctx.throw_if_interrupted();
        const auto scheduled = t0 + std::chrono::duration_cast<RepClock::duration>(interval * static_cast<double>(i));
        if (const auto now = RepClock::now(); now < scheduled)
            ctx.sleep_for(std::chrono::duration_cast<Seconds>(scheduled - now));  // Ctrl-C ends it
        else if (now - scheduled > kLate)
            ++late;
        const auto reply = ctx.port.create_user("cap" + std::to_string(level) + "_" + std::to_string(i + 1), s.timeout);
        latency_ms.push_back(std::chrono::duration<double, std::milli>(RepClock::now() - scheduled).count());
        const auto* id = reply.ok() && reply.output.is_object() ? reply.output.as_object().if_contains("id") : nullptr;
        if (id != nullptr && id->is_string()) created.emplace_back(id->as_string());
        else ++failed;
        if (reply.ok() || (reply.failure == isolation::WorkerReply::Failure::kNone && reply.code == STAND_E_BAD_RESPONSE))
            ++answered;
        else if (first_error.empty())
            first_error = reply.error.empty() ? std::string(stand_result_name(reply.code)) : reply.error;
    }
    if (answered == 0)
        unanswered = std::to_string(calls) + (calls == 1 ? " create_user call" : " create_user calls") +
                     ", no answer from the panel: " + first_error;
    // The level's window is its dwell at least: the last call is scheduled a whole interval before its end.
    const double elapsed = std::max(std::chrono::duration<double>(RepClock::now() - t0).count(), dwell.count());
    for (const auto& id : created) ctx.port.delete_user(id, s.timeout);
    std::sort(latency_ms.begin(), latency_ms.end());
    const double n = static_cast<double>(calls);
    return {{"p50_ms", stats::quantile_sorted(latency_ms, 0.5)},
            {"p90_ms", stats::quantile_sorted(latency_ms, 0.9)},
            {"p95_ms", stats::quantile_sorted(latency_ms, 0.95)},
            {"p99_ms", stats::quantile_sorted(latency_ms, 0.99)},
            {"rps", static_cast<double>(created.size()) / elapsed},
            {"error_pct", 100.0 * static_cast<double>(failed) / n},
            {"late_pct", 100.0 * static_cast<double>(late) / n},
            {"behind_pct", 100.0 * static_cast<double>(late) / n}};
}

}  // namespace stand::scenario::steps
