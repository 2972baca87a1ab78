// stand.panel/1's setup and users, and the size of what a plugin installed:
// bootstrap, create_users, disk_usage.
#include "scenario/steps/panel.hpp"

#include "scenario/data_bytes.hpp"
#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/subscription_secrets.hpp"
#include "scenario/value_syntax.hpp"

#include <algorithm>
#include <filesystem>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;
using Deadline = RepClock::time_point;

void run_bootstrap(RepContext& ctx, const Step& s, Deadline) {
    const auto t0 = RepClock::now();
    ctx.must(ctx.port.bootstrap(s.timeout));
    ctx.put(s.name + ".seconds", std::chrono::duration<double>(RepClock::now() - t0).count());
}

// Sum of 429 waits in the worker's HTTP call log so far: (count, seconds).
std::pair<double, double> waits_so_far(RepContext& ctx) {
    auto reply = ctx.port.http_calls(std::chrono::seconds(30));
    double count = 0, ms = 0;
    if (reply.ok() && reply.output.is_array())
        for (const auto& c : reply.output.as_array()) {
            const auto& o = c.as_object();
            if (auto* w = o.if_contains("retry_waits")) count += w->to_number<double>();
            if (auto* w = o.if_contains("waited_ms")) ms += w->to_number<double>();
        }
    return {count, ms / 1000.0};
}

RepUser create_user(RepContext& ctx, const Step& s, const std::string& name) {
    auto out = ctx.must(ctx.port.create_user(name, s.timeout));
    const auto* o = out.if_object();
    if (o == nullptr || !o->contains("id") || !o->at("id").is_string() || !o->contains("subscription") ||
        !o->at("subscription").is_object())
        throw StepFailure("panel.create_user(" + name + ") returned no {id, subscription}: " + json::serialize(out));
    const auto& subscription = o->at("subscription").as_object();
    mark_subscription_secrets(subscription);
    return {std::string(o->at("id").as_string()), subscription};
}

void run_create_users(RepContext& ctx, const Step& s, Deadline deadline) {
    const auto& c = s.action.get<CreateUsersStep>();
    const auto before = waits_so_far(ctx);
    std::vector<double> call_ms;
    const auto t0 = RepClock::now();
    for (std::uint32_t i = 1; i <= c.count; ++i) {
        ctx.throw_if_interrupted();
        if (RepClock::now() > deadline)
            throw StepFailure("created " + std::to_string(i - 1) + " of " + std::to_string(c.count) +
                              " users before the timeout");
        const auto started = RepClock::now();
        ctx.state.users.push_back(create_user(ctx, s, c.prefix + std::to_string(i)));
        call_ms.push_back(std::chrono::duration<double, std::milli>(RepClock::now() - started).count());
    }
    const double wall = std::chrono::duration<double>(RepClock::now() - t0).count();
    const auto after = waits_so_far(ctx);
    std::sort(call_ms.begin(), call_ms.end());
    auto pct = [&](double p) { return call_ms[static_cast<std::size_t>(p * static_cast<double>(call_ms.size() - 1))]; };
    ctx.put(s.name + ".seconds", wall);
    ctx.put(s.name + ".users", static_cast<double>(c.count));
    ctx.put(s.name + ".call_p50_ms", pct(0.5));
    ctx.put(s.name + ".call_p99_ms", pct(0.99));
    ctx.put(s.name + ".call_max_ms", call_ms.back());
    // Rate-limit waits apart from the wall time: the panel's cost vs its limiter's.
    ctx.put(s.name + ".waits_429", after.first - before.first);
    ctx.put(s.name + ".wait_429_s", after.second - before.second);
    ctx.put(s.name + ".seconds_excl_429", wall - (after.second - before.second));
}

void run_disk_usage(RepContext& ctx, const Step& s, Deadline) {
    auto facts = ctx.must(ctx.port.facts(s.timeout));
    const auto* dirs = facts.is_object() ? facts.as_object().if_contains("data_dirs") : nullptr;
    if (dirs == nullptr || !dirs->is_array()) throw StepFailure("lifecycle.facts has no data_dirs");
    std::vector<std::filesystem::path> roots;
    for (const auto& d : dirs->as_array())
        if (d.is_string()) roots.emplace_back(std::string(d.as_string()));
    ctx.put(s.name + ".data_mib", data_bytes(roots) / 1048576.0);
    if (const auto* c = facts.as_object().if_contains("containers"); c && c->is_number())
        ctx.put(s.name + ".containers", c->to_number<double>());
    if (const auto* arts = facts.as_object().if_contains("artifacts"); arts && arts->is_array()) {
        double a = 0;
        for (const auto& x : arts->as_array())
            if (const auto* b = x.is_object() ? x.as_object().if_contains("bytes") : nullptr; b && b->is_number())
                a += b->to_number<double>();
        ctx.put(s.name + ".artifacts_mib", a / 1048576.0);
    }
}

}  // namespace

const StepKind& bootstrap_kind() {
    static const StepKind k{.name = "bootstrap",
                            .summary = "the panel's one-time setup, timed",
                            .interface = "stand.panel/1",
                            .metrics = {"seconds"},
                            .timeout = milliseconds(300'000),  // Mistgate waits for the next TOTP step
                            .parse = step_keys::no_keys<BootstrapStep>,
                            .run = run_bootstrap};
    return k;
}

const StepKind& create_users_kind() {
    static const StepKind k{
        .name = "create_users",
        .summary = "creates users <prefix>1..N one call at a time; they become the repetition's users",
        .interface = "stand.panel/1",
        .keys = {{"count", "integer 1..100000", "required"}, {"prefix", "letters, digits, _ and -", "user"}},
        .metrics = {"seconds", "users", "call_p50_ms", "call_p99_ms", "call_max_ms", "waits_429", "wait_429_s",
                    "seconds_excl_429"},
        .timeout = milliseconds(3'600'000),
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            CreateUsersStep step;
            r.require("count", "an integer 1.." + std::to_string(step_keys::kMaxUsers));
            step.count = static_cast<std::uint32_t>(*r.uint("count", 1, step_keys::kMaxUsers));
            if (auto v = r.string("prefix")) {
                if (!is_valid_name(*v))
                    r.at("prefix").fail("letters, digits, '_' and '-' (at most 64)", r.find("prefix"));
                step.prefix = *v;
            }
            return step;
        },
        .users_created = [](const StepAction& a) { return a.get<CreateUsersStep>().count; },
        .run = run_create_users};
    return k;
}

const StepKind& disk_usage_kind() {
    static const StepKind k{.name = "disk_usage",
                            .summary = "the size of the plugin's data dirs and artifacts (from its facts)",
                            .interface = "stand.lifecycle/1",
                            .metrics = {"data_mib", "artifacts_mib", "containers"},
                            .parse = step_keys::no_keys<DiskUsageStep>,
                            .run = run_disk_usage};
    return k;
}

}  // namespace stand::scenario::steps
