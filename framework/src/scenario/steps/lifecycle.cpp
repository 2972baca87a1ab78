// install, start, stop, wipe (stand.lifecycle/1 calls) and the steps that
// time readiness: wait_ready, restart.
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

namespace stand::scenario::steps {
namespace {

using std::chrono::milliseconds;

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
                            .parse = step_keys::no_keys<InstallStep>};
    return k;
}

const StepKind& start_kind() {
    static const StepKind k{.name = "start",
                            .summary = "the plugin starts the system",
                            .interface = "stand.lifecycle/1",
                            .parse = step_keys::no_keys<StartStep>};
    return k;
}

const StepKind& stop_kind() {
    static const StepKind k{.name = "stop",
                            .summary = "the plugin stops the system",
                            .interface = "stand.lifecycle/1",
                            .parse = step_keys::no_keys<StopStep>};
    return k;
}

const StepKind& wipe_kind() {
    static const StepKind k{.name = "wipe",
                            .summary = "the plugin removes what it installed",
                            .interface = "stand.lifecycle/1",
                            .parse = step_keys::no_keys<WipeStep>};
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
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction { return read_retry<WaitReadyStep>(r); }};
    return k;
}

const StepKind& restart_kind() {
    static const StepKind k{
        .name = "restart",
        .summary = "restarts the system and times it until ready again (with admin_api: until the panel's admin API answers)",
        .interface = "stand.lifecycle/1",
        .keys = {kRetryKeys[0], kRetryKeys[1], {"admin_api", "bool", "false"}},
        .metrics = {"seconds", "command_seconds", "admin_api_seconds"},
        .timeout = milliseconds(180'000),
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            auto step = read_retry<RestartStep>(r);
            if (auto v = r.boolean("admin_api")) step.admin_api = *v;
            return step;
        },
        .emits = [](const StepAction& a, std::string_view m) {
            return m != "admin_api_seconds" || std::get<RestartStep>(a).admin_api;
        }};
    return k;
}

}  // namespace stand::scenario::steps
