// The step kinds: each defined in its own file of this folder. A new kind
// is its file and one line in each list below.
#include "scenario/steps/step_kind.hpp"

#include <algorithm>

namespace stand::scenario {
namespace steps {
const StepKind& install_kind();
const StepKind& start_kind();
const StepKind& stop_kind();
const StepKind& wipe_kind();
const StepKind& wait_ready_kind();
const StepKind& sleep_kind();
const StepKind& idle_kind();
const StepKind& restart_kind();
const StepKind& load_kind();
const StepKind& run_probe_kind();
const StepKind& bootstrap_kind();
const StepKind& create_users_kind();
const StepKind& disk_usage_kind();
const StepKind& configure_kind();
const StepKind& websocket_kind();
const StepKind& hold_idle_kind();
const StepKind& tunnel_throughput_kind();
const StepKind& many_clients_kind();
const StepKind& capacity_kind();
const StepKind& revoke_under_traffic_kind();
const StepKind& traffic_accounting_kind();
}  // namespace steps

const std::vector<const StepKind*>& step_kinds() {
    using namespace steps;
    static const std::vector<const StepKind*> kinds = {
        &install_kind(),   &start_kind(),        &stop_kind(),       &wipe_kind(),
        &wait_ready_kind(), &sleep_kind(),       &idle_kind(),       &restart_kind(),
        &load_kind(),      &run_probe_kind(),    &bootstrap_kind(),  &create_users_kind(),
        &disk_usage_kind(), &configure_kind(),   &websocket_kind(),  &hold_idle_kind(),
        &tunnel_throughput_kind(), &many_clients_kind(), &capacity_kind(), &revoke_under_traffic_kind(),
        &traffic_accounting_kind()};
    return kinds;
}

const StepKind* find_step_kind(std::string_view name) {
    const auto& kinds = step_kinds();
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const StepKind* k) { return k->name == name; });
    return it == kinds.end() ? nullptr : *it;
}

std::string step_kind_names() {
    std::string out;
    for (const StepKind* k : step_kinds()) out += (out.empty() ? "" : ", ") + std::string(k->name);
    return out;
}

std::vector<std::string_view> step_metric_suffixes(const Step& step) {
    const StepKind* kind = find_step_kind(step.kind);
    if (kind == nullptr) return {};
    std::vector<std::string_view> out;
    for (std::string_view m : kind->metrics)
        if (kind->emits == nullptr || kind->emits(step.action, m)) out.push_back(m);
    return out;
}

}  // namespace stand::scenario
