// stand.panel/1's setup and users, and the size of what a plugin installed:
// bootstrap, create_users, disk_usage.
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

#include "scenario/value_syntax.hpp"

namespace stand::scenario::steps {

using std::chrono::milliseconds;

const StepKind& bootstrap_kind() {
    static const StepKind k{.name = "bootstrap",
                            .summary = "the panel's one-time setup, timed",
                            .interface = "stand.panel/1",
                            .metrics = {"seconds"},
                            .timeout = milliseconds(300'000),  // Mistgate waits for the next TOTP step
                            .parse = step_keys::no_keys<BootstrapStep>};
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
        }};
    return k;
}

const StepKind& disk_usage_kind() {
    static const StepKind k{.name = "disk_usage",
                            .summary = "the size of the plugin's data dirs and artifacts (from its facts)",
                            .interface = "stand.lifecycle/1",
                            .metrics = {"data_mib", "artifacts_mib", "containers"},
                            .parse = step_keys::no_keys<DiskUsageStep>};
    return k;
}

}  // namespace stand::scenario::steps
