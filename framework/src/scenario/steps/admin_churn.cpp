#include "scenario/steps/admin_churn.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace stand::scenario {
namespace {

namespace json = boost::json;

struct ChurnTimes {
    std::vector<double> add_ms, del_ms, call_ms;
    json::array errors;  // the first ten
    std::size_t error_count = 0;
};

void put_percentiles(RepContext& ctx, const Step& s, const char* name, std::vector<double>& v) {
    if (v.empty()) return;
    std::sort(v.begin(), v.end());
    auto at = [&](double p) { return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))]; };
    ctx.put(s.name + ".admin_" + name + "_p50_ms", at(0.5));
    ctx.put(s.name + ".admin_" + name + "_p95_ms", at(0.95));
    ctx.put(s.name + ".admin_" + name + "_max_ms", v.back());
}

}  // namespace

json::object run_admin_churn(RepContext& ctx, const Step& s, double per_s, const std::atomic<bool>& done) {
    ChurnTimes t;
    constexpr std::chrono::seconds kCall{30};
    // `call` is made now; its time goes to `into`.
    auto timed = [&](auto call, std::vector<double>& into) {
        const auto started = RepClock::now();
        PortReply reply = call();
        into.push_back(std::chrono::duration<double, std::milli>(RepClock::now() - started).count());
        if (!reply.ok()) {
            ++t.error_count;
            if (t.errors.size() < 10) t.errors.emplace_back(std::string(abi_name(reply.call)) + ": " + reply.error);
        }
        return reply;
    };
    const auto period = std::chrono::duration_cast<RepClock::duration>(std::chrono::duration<double>(1.0 / per_s));
    auto next = RepClock::now();
    std::string previous;
    for (int i = 1; !done.load() && !ctx.env.interrupted.load() && ctx.port.alive(); ++i) {
        auto added = timed([&] { return ctx.port.create_user("churn" + std::to_string(i), kCall); }, t.add_ms);
        if (!previous.empty()) timed([&] { return ctx.port.delete_user(previous, kCall); }, t.del_ms);
        previous.clear();
        if (added.ok() && added.output.is_object())
            if (const auto* id = added.output.as_object().if_contains("id"); id && id->is_string())
                previous = std::string(id->as_string());
        timed([&] { return ctx.port.admin_call(kCall); }, t.call_ms);
        next += period;
        while (RepClock::now() < next && !done.load()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!previous.empty() && ctx.port.alive()) timed([&] { return ctx.port.delete_user(previous, kCall); }, t.del_ms);
    put_percentiles(ctx, s, "add", t.add_ms);
    put_percentiles(ctx, s, "del", t.del_ms);
    put_percentiles(ctx, s, "call", t.call_ms);
    ctx.put(s.name + ".admin_errors", static_cast<double>(t.error_count));
    return {{"adds", t.add_ms.size()}, {"deletes", t.del_ms.size()}, {"calls", t.call_ms.size()},
            {"error_count", t.error_count}, {"errors", t.errors}};
}

}  // namespace stand::scenario
