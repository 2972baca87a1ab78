// run_probe: a probe job of the plugin (stand.probe/1), which reports the metrics.
#include "scenario/steps/step_kind.hpp"

namespace stand::scenario::steps {

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
        }};
    return k;
}

}  // namespace stand::scenario::steps
