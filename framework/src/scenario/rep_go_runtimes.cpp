#include "scenario/rep_go_runtimes.hpp"
#include "rundir/run_files.hpp"

#include "detect/box_cpu.hpp"

namespace stand::scenario {

namespace json = boost::json;

void check_go_runtimes(RepContext& ctx, const detect::GoProcessScanner& seen) {
    if (seen.found().empty()) return;
    json::array programs;
    for (const auto& p : seen.found()) programs.push_back(p.to_json());
    ctx.record.doc[rundir::rep_key::kGoRuntimes] = std::move(programs);
    std::optional<detect::Throttling> throttling;
    if (ctx.env.sampler != nullptr) {
        ctx.env.sampler->sample_now();
        try {
            const auto w = ctx.env.sampler->window(ctx.rep_start, RepClock::now());
            if (w.periods)
                throttling = detect::Throttling{*w.periods, w.throttled_periods.value_or(0), w.throttled_us.value_or(0)};
        } catch (const sampler::WindowError&) {
            // too short for a window: the finding says there were no counters
        }
    }
    auto verdict = detect::check_go_runtimes(seen.found(), detect::box_cpu_of(rundir::field(ctx.env.preface, rundir::rep_key::kBox)).vcpu,
                                             throttling, ctx.plugin().label + " rep " + std::to_string(ctx.env.planned.rep));
    for (const auto& f : verdict.findings) ctx.record.finding(f);
    json::array caveats;
    for (const auto& n : verdict.notes) caveats.emplace_back(n);
    if (!caveats.empty()) ctx.record.doc[rundir::rep_key::kGoRuntimeNotes] = std::move(caveats);
}

}  // namespace stand::scenario
