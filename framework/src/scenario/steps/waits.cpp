// sleep (waits, measuring nothing) and idle (waits while sampling the box).
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

namespace stand::scenario::steps {

const StepKind& sleep_kind() {
    static const StepKind k{
        .name = "sleep",
        .summary = "waits, measuring nothing",
        .keys = {{"duration_s", "number > 0, at most 86400", "required"}},
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            return SleepStep{step_keys::duration(r)};
        },
        .duration = step_keys::duration_of<SleepStep>};
    return k;
}

const StepKind& idle_kind() {
    static const StepKind k{
        .name = "idle",
        .summary = "waits while sampling the box's CPU and memory",
        .keys = {{"duration_s", "number > 0, at most 86400", "required"}},
        .metrics = {"cpu_pct", "mem_mean_mib", "mem_max_mib", "anon_mean_mib", "workset_mean_mib", "procs"},
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            return IdleStep{step_keys::duration(r)};
        },
        .duration = step_keys::duration_of<IdleStep>};
    return k;
}

}  // namespace stand::scenario::steps
