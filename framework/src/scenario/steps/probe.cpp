// run_probe: a probe job of the plugin (stand.probe/1), which reports the metrics.
#include "scenario/steps/probe.hpp"

#include "box/process_placement.hpp"
#include "scenario/probe_result.hpp"
#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_kind.hpp"

#include <algorithm>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;

// probe.run of a prepared job, and what it answered recorded.
void measure(RepContext& ctx, const Step& s, const ProbeStep& a, std::chrono::milliseconds timeout) {
    const auto t0 = ctx.window_start();
    auto out = ctx.must(ctx.port.run(a.job, timeout));
    const auto t1 = RepClock::now();
    ProbeResult result;
    try {
        result = read_probe_result(out);
    } catch (const std::exception& e) {
        throw StepFailure(ctx.plugin().label + " probe.run of job '" + a.job + "' answered garbage: " + e.what());
    }
    for (const auto& [k, v] : result.metrics) ctx.put(s.name + "." + k, v);
    // The box's CPU beside what the probe measured; a job that measured nothing (7z absent) gets none.
    if (auto w = ctx.window(t0, t1, s.name); w && w->cpu_pct && !result.metrics.empty())
        ctx.put(s.name + ".box_cpu_pct", *w->cpu_pct);
    if (!result.facts.empty()) ctx.record.probe_facts[s.name] = result.facts;
    auto& notes = ctx.record.notes;
    for (const auto& n : result.notes)
        if (std::find(notes.begin(), notes.end(), json::value(n)) == notes.end()) notes.emplace_back(n);
}

// The probe measures inside the worker, so the worker joins the measured
// box for the step (limits and io throttling apply, samples see it).
void run_probe(RepContext& ctx, const Step& s, RepClock::time_point deadline) {
    const auto& a = s.action.get<ProbeStep>();
    std::optional<box::ProcessPlacement> inside;
    if (auto it = ctx.env.host.boxes.find("measured"); it != ctx.env.host.boxes.end() && ctx.port.pid() > 0) {
        try {
            inside.emplace(ctx.port.pid(), it->second);
        } catch (const std::exception& e) {
            throw StepFailure(std::string("moving the probe into the box: ") + e.what());
        }
    }
    auto left = [&] {
        return std::max(std::chrono::milliseconds(1000),
                        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - RepClock::now()));
    };
    ctx.must(ctx.port.prepare(a.job, a.params, left()));
    try {
        measure(ctx, s, a, left());
    } catch (const StepFailure&) {
        // The host cleans up after every step (ext/probe.h), one whose run failed too; not after a signal.
        if (!ctx.env.interrupted.load()) (void)ctx.port.cleanup(a.job, left());
        throw;
    }
    ctx.must(ctx.port.cleanup(a.job, left()));
}

}  // namespace

const StepKind& run_probe_kind() {
    static const StepKind k{
        .name = "run_probe",
        .summary = "runs a probe job of the plugin, which reports metrics",
        .interface = "stand.probe/1",
        .keys = {{"job", "non-empty string", "required"}, {"params", "object", "{}"}},
        .metrics = {"*"},
        .parse = [](const ObjectReader& r, const StepParseContext&) -> StepAction {
            ProbeStep step;
            step.job = expect_string(r.require("job", "a non-empty string"), r.at("job"), true);
            if (const auto* params = r.find("params")) step.params = expect_object(*params, r.at("params"));
            return step;
        },
        .run = run_probe};
    return k;
}

}  // namespace stand::scenario::steps
