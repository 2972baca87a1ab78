#include "scenario/probe_params_check.hpp"

#include "isolation/plugin_worker.hpp"
#include "loader/schema_check.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/steps/probe.hpp"
#include "text/user_error.hpp"

#include <boost/json.hpp>

#include <chrono>

namespace stand::scenario {

namespace json = boost::json;

namespace {

constexpr std::chrono::seconds kListTimeout{30};

// The plugin's jobs, by id: {"id", "description", "params_schema"}.
json::array jobs_of(const PluginRef& plugin, const loader::PluginSearch& search, const std::filesystem::path& scratch,
                    const std::atomic<bool>* interrupted) {
    isolation::WorkerOptions options;
    options.interrupted = interrupted;
    options.plugin_file = search.resolve(plugin.id)->file;
    options.plugin_id = plugin.label;
    options.host.run_dir = scratch / plugin.label;
    options.host.log = [](int, const std::string&, const std::string&) {};
    isolation::PluginWorker worker(std::move(options));
    auto created = worker.create(json::serialize(plugin.config), kListTimeout);
    using Failure = isolation::WorkerReply::Failure;
    if (created.failure == Failure::kInterrupted)
        throw StoppedBeforeRun("interrupted while checking the plugins; nothing was measured");
    if (created.failure != Failure::kNone)
        throw text::UserError("plugin " + plugin.label + ": " + created.error + " (while listing its probe jobs)");
    if (!created.ok())
        throw text::UserError("refused plugin " + plugin.label + ": its create() refused the config: " + created.error);
    auto listed = worker.call("probe.list_jobs", {}, kListTimeout);
    if (listed.failure == Failure::kInterrupted)
        throw StoppedBeforeRun("interrupted while checking the plugins; nothing was measured");
    worker.shutdown(std::chrono::seconds(5));
    if (!listed.ok() || !listed.output.is_array())
        throw std::runtime_error(plugin.label + ": probe.list_jobs failed: " + listed.error);
    return listed.output.as_array();
}

void check_step(const Scenario& scenario, const Step& step, const PluginRef& plugin, const json::array& jobs) {
    const auto& probe = step.action.get<ProbeStep>();
    std::string known;
    for (const auto& j : jobs) {
        const json::object* job = j.if_object();
        if (job == nullptr || !job->contains("id") || !job->at("id").is_string()) continue;
        known += (known.empty() ? "" : ", ") + std::string(job->at("id").as_string());
        if (job->at("id").as_string() != probe.job) continue;
        const json::value* schema = job->if_contains("params_schema");
        if (schema == nullptr) return;
        auto problems = loader::schema_problems(probe.params, *schema);
        if (problems.empty()) return;
        std::string all;
        for (const auto& p : problems) all += (all.empty() ? "" : "; ") + p;
        throw ScenarioError(scenario.file, step.json_path + ".params",
                            plugin.label + "'s job '" + probe.job + "' refuses these params: " + all);
    }
    throw ScenarioError(scenario.file, step.json_path + ".job",
                        plugin.label + " has no probe job '" + probe.job + "' (it has: " + known + ")");
}

}  // namespace

void check_probe_params(const Scenario& scenario, const loader::PluginSearch& search,
                        const std::filesystem::path& scratch_dir, const std::atomic<bool>* interrupted) {
    for (const auto& plugin : scenario.plugins) {
        std::vector<const Step*> steps;
        for (const auto& phase : scenario.phases)
            for (const auto& step : phase.steps)
                if (step.action.holds<ProbeStep>() && (step.plugin.empty() || step.plugin == plugin.label))
                    steps.push_back(&step);
        if (steps.empty() || !search.resolve(plugin.id)->implements("stand.probe/1")) continue;
        const json::array jobs = jobs_of(plugin, search, scratch_dir, interrupted);
        for (const Step* step : steps) check_step(scenario, *step, plugin, jobs);
    }
}

}  // namespace stand::scenario
