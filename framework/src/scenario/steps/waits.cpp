// sleep (waits, measuring nothing) and idle (waits while sampling the box).
#include "scenario/steps/waits.hpp"

#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

namespace stand::scenario::steps {
namespace {

void run_sleep(RepContext& ctx, const Step& s, RepClock::time_point) { ctx.sleep_for(s.action.get<SleepStep>().duration); }

void run_idle(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto t0 = ctx.window_start();
    ctx.sleep_for(s.action.get<IdleStep>().duration);
    const auto w = ctx.window(t0, RepClock::now(), s.name);
    if (!w) return;
    constexpr double kMiB = 1024.0 * 1024.0;
    if (w->cpu_pct) ctx.put(s.name + ".cpu_pct", *w->cpu_pct);
    if (w->mem_current) {
        ctx.put(s.name + ".mem_mean_mib", w->mem_current->mean / kMiB);
        ctx.put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / kMiB);
    }
    if (w->anon) ctx.put(s.name + ".anon_mean_mib", w->anon->mean / kMiB);
    if (w->working_set) ctx.put(s.name + ".workset_mean_mib", w->working_set->mean / kMiB);
    if (w->procs) ctx.put(s.name + ".procs", static_cast<double>(w->procs->last));
}

}  // namespace

const StepKind& sleep_kind() {
    static const StepKind k{
        .name = "sleep",
        .summary = "waits, measuring nothing",
        .keys = {{"duration_s", "number > 0, at most 86400", "required"}},
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            return SleepStep{step_keys::duration(r)};
        },
        .duration = step_keys::duration_of<SleepStep>,
        .run = run_sleep};
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
        .duration = step_keys::duration_of<IdleStep>,
        .run = run_idle};
    return k;
}

}  // namespace stand::scenario::steps
