// A load step's open admin dashboards (dashboards: N): while the load runs,
// N dashboards each repeat every request the panel's own admin UI polls
// (panel.dashboard_requests) at the UI's own period. Each request is an
// open-model load of its own (rate N / period, N connections: one per
// dashboard), so the host's load generator times every one of them.
#pragma once

#include "load/load_engine.hpp"
#include "scenario/steps/rep_context.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace stand::scenario {

struct DashboardLoad {
    std::string page;
    std::string name;
    double every_s = 0;
    load::LoadSpec spec;
};

struct DashboardPlan {
    unsigned dashboards = 1;
    std::chrono::nanoseconds duration{};
    bool allow_remote = false;
    std::set<unsigned> cpus;  // the generator's
};

// The loads for panel.dashboard_requests' `answer`; a StepFailure naming
// the call and what is wrong with the answer. Header values become secrets.
std::vector<DashboardLoad> dashboard_loads(const boost::json::value& answer, const DashboardPlan& plan);

// Asks the plugin for its dashboard's requests and plans `dashboards`
// dashboards polling them for `duration`. Before anything runs: a plugin
// without them, or an answer that is not one, is a StepFailure naming the
// call. The requests' headers (a signed-in session) become secrets.
std::vector<DashboardLoad> plan_dashboards(RepContext& ctx, const Step& s, unsigned dashboards,
                                           std::chrono::nanoseconds duration);

struct DashboardOutcome {
    boost::json::object record;  // loads.<step>.dashboard
    std::vector<std::pair<std::string, double>> metrics;  // dash_* over every request
};

// Runs the planned loads at once until each window ends (or the run is
// stopped). The outcome: each request's page, name, period, rate,
// answers, errors and latency, and dash_{rps,p50_ms,p95_ms,max_ms,
// error_pct} over them all, for the caller to put once the step's other
// threads are joined. Never throws (a load that could not run is an error
// in its entry): it runs beside the step's load, which must be joined.
DashboardOutcome run_dashboards(const RepContext& ctx, const std::vector<DashboardLoad>& loads);

}  // namespace stand::scenario
