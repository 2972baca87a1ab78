// The keys of load (load.cpp).
#pragma once

#include "fleetrun/link_shaping.hpp"
#include "scenario/scenario_model.hpp"
#include "scenario/steps/step_kind.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stand::scenario {

struct LoadStep {
    Seconds duration{10};
    std::uint32_t connections = 16;
    std::uint32_t threads = 1;
    std::optional<double> rate;     // requests/s: open model; absent: closed model
    bool keepalive = true;
    std::string path = "/";         // appended to the target's base URL
    std::vector<std::string> urls;  // explicit links instead of the plugin's endpoint
    std::vector<std::string> headers;  // "Name: value"
    std::chrono::milliseconds request_timeout{10000};
    // "subscriptions": one link per user created so far, each with the
    // headers its panel asked for; "endpoint" (default): the plugin's URL.
    bool subscription_links = false;
    bool xff_per_link = false;  // X-Forwarded-For derived from the link index
    std::optional<std::string> bind_prefix;  // "127.1": link k from 127.1.(k/250+1).(k%250+1)
    bool warmup_once = false;   // fetch every link once before the measured window
    // Control-plane churn while the load runs: this many times a second one
    // user added, the previous one deleted and one admin call, each timed.
    double churn_per_s = 0;
    // Open admin dashboards while the load runs: each repeats every request
    // the panel's own UI polls (panel.dashboard_requests), at its period.
    std::uint32_t dashboards = 0;
    // Names of the scenario's "generators": the load is sent from those
    // hosts at once (fleetrun/generator_load.hpp), its rate split between
    // them and their histograms merged; empty: from this machine.
    std::vector<std::string> generators;
    std::optional<fleetrun::LinkPlan> link;  // with generators: declared conditions on their links
    // "from": "controller": when the scenario runs on a fleet host, the load
    // comes from the controller (fleetrun/controller_load.hpp), outside the
    // host; run here, the controller is this machine, so nothing changes.
    bool from_controller = false;
};

namespace steps {
// A load step's keys from `r` (those its kind lists; another kind that
// allows fewer of them gets the defaults of the rest).
LoadStep read_load_step(const ObjectReader& r, const StepParseContext& ctx);
}  // namespace steps

}  // namespace stand::scenario
