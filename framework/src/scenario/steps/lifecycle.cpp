// install, start, stop, wipe (stand.lifecycle/1 calls) and the steps that
// time readiness: wait_ready, restart.
#include "scenario/steps/lifecycle.hpp"

#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "target/readiness_poll.hpp"

#include <thread>

namespace stand::scenario::steps {
namespace {

using std::chrono::milliseconds;
using Deadline = RepClock::time_point;

// A stand.lifecycle/1 call of its own, bounded by the step's timeout.
template <PortReply (PluginPort::*Call)(PluginPort::Timeout)>
void run_call(RepContext& ctx, const Step& s, Deadline) {
    ctx.must((ctx.port.*Call)(s.timeout));
}

// Polls the readiness request from `origin` until it succeeds: <step>.seconds.
void wait_ready(RepContext& ctx, const Step& s, RepClock::time_point origin, milliseconds interval,
                milliseconds per_try, Deadline deadline) {
    auto spec = ctx.readiness(s.timeout);
    try {
        // The plugin's processes live in its worker: ask it each round whether one ended.
        target::ExitWatch exits = [&ctx] {
            auto reply = ctx.port.ended_processes(std::chrono::seconds(5));
            if (!reply.ok()) return std::vector<host::EndedProcess>{};
            try {
                return host::ended_processes_from_json(reply.output);
            } catch (const std::exception& e) {
                throw StepFailure("the worker's list of ended processes: " + std::string(e.what()));
            }
        };
        auto ready = target::poll_until_ready(ctx.http, spec, origin, interval, per_try, deadline, ctx.env.interrupted,
                                              exits);
        ctx.put(s.name + ".seconds", ready.seconds);
    } catch (const std::exception& e) {
        throw StepFailure(e.what());
    }
}

// After a restart: until panel.admin_call succeeds (the plugin logs in
// again as needed), every 100 ms, timed from the restart command.
void admin_api_back(RepContext& ctx, const Step& s, RepClock::time_point origin, Deadline deadline) {
    std::string last;
    while (RepClock::now() < deadline) {
        ctx.throw_if_interrupted();
        auto reply = ctx.port.admin_call(std::chrono::seconds(10));
        if (reply.ok()) {
            ctx.put(s.name + ".admin_api_seconds", std::chrono::duration<double>(RepClock::now() - origin).count());
            return;
        }
        if (reply.failure != isolation::WorkerReply::Failure::kNone) throw StepFailure("panel.admin_call: " + reply.error);
        last = reply.error;
        std::this_thread::sleep_for(milliseconds(100));
    }
    throw StepFailure("the admin API did not answer before the step's timeout; last error: " + last);
}

void run_start(RepContext& ctx, const Step& s, Deadline) {
    ctx.state.last_start = RepClock::now();
    ctx.must(ctx.port.start(s.timeout));
}

void run_wait_ready(RepContext& ctx, const Step& s, Deadline deadline) {
    const auto& a = s.action.get<WaitReadyStep>();
    wait_ready(ctx, s, ctx.state.last_start, a.interval, a.per_try_timeout, deadline);
}

void run_restart(RepContext& ctx, const Step& s, Deadline deadline) {
    const auto& a = s.action.get<RestartStep>();
    const auto origin = RepClock::now();
    ctx.must(ctx.port.restart(s.timeout));
    ctx.put(s.name + ".command_seconds", std::chrono::duration<double>(RepClock::now() - origin).count());
    wait_ready(ctx, s, origin, a.interval, a.per_try_timeout, deadline);
    if (a.admin_api) admin_api_back(ctx, s, origin, deadline);
}

template <class T>
T read_retry(const ObjectReader& r) {
    T step;
    if (auto v = r.uint("interval_ms", 1, step_keys::kMaxIntervalMs)) step.interval = milliseconds(*v);
    if (auto v = r.uint("per_try_timeout_ms", 1, step_keys::kMaxRequestMs)) step.per_try_timeout = milliseconds(*v);
    return step;
}

const std::vector<StepKey> kRetryKeys = {{"interval_ms", "integer 1..60000", "50"},
                                         {"per_try_timeout_ms", "integer 1..600000", "2000"}};

}  // namespace

const StepKind& install_kind() {
    static const StepKind k{.name = "install",
                            .summary = "the plugin installs the system",
                            .interface = "stand.lifecycle/1",
                            .timeout = milliseconds(600'000),
                            .parse = step_keys::no_keys<InstallStep>,
                            .run = run_call<&PluginPort::install>};
    return k;
}

const StepKind& start_kind() {
    static const StepKind k{.name = "start",
                            .summary = "the plugin starts the system",
                            .interface = "stand.lifecycle/1",
                            .parse = step_keys::no_keys<StartStep>,
                            .run = run_start};
    return k;
}

const StepKind& stop_kind() {
    static const StepKind k{.name = "stop",
                            .summary = "the plugin stops the system",
                            .interface = "stand.lifecycle/1",
                            .parse = step_keys::no_keys<StopStep>,
                            .run = run_call<&PluginPort::stop>};
    return k;
}

const StepKind& wipe_kind() {
    static const StepKind k{.name = "wipe",
                            .summary = "the plugin removes what it installed",
                            .interface = "stand.lifecycle/1",
                            .parse = step_keys::no_keys<WipeStep>,
                            .run = run_call<&PluginPort::wipe>};
    return k;
}

const StepKind& wait_ready_kind() {
    static const StepKind k{
        .name = "wait_ready",
        .summary = "polls the readiness request until it succeeds; times that",
        .interface = "stand.lifecycle/1",
        .keys = kRetryKeys,
        .metrics = {"seconds"},
        .timeout = milliseconds(180'000),
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction { return read_retry<WaitReadyStep>(r); },
        .run = run_wait_ready};
    return k;
}

const StepKind& restart_kind() {
    static const StepKind k{
        .name = "restart",
        .summary = "restarts the system and times it until ready again (with admin_api: until the panel's admin API answers)",
        .interface = "stand.lifecycle/1",
        .interfaces_of = [](const StepAction& a) {
            std::vector<std::string_view> out{"stand.lifecycle/1"};
            if (a.get<RestartStep>().admin_api) out.emplace_back("stand.panel/1");
            return out;
        },
        .keys = {kRetryKeys[0], kRetryKeys[1], {"admin_api", "bool", "false"}},
        .metrics = {"seconds", "command_seconds", "admin_api_seconds"},
        .timeout = milliseconds(180'000),
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            auto step = read_retry<RestartStep>(r);
            if (auto v = r.boolean("admin_api")) step.admin_api = *v;
            return step;
        },
        .emits = [](const StepAction& a, std::string_view m) {
            return m != "admin_api_seconds" || a.get<RestartStep>().admin_api;
        },
        .run = run_restart};
    return k;
}

}  // namespace stand::scenario::steps
