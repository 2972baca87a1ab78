// One repetition's context around a fake port, for running a step kind's
// run() in a unit test: the scenario parsed from text, a run directory in a
// temporary folder, no box, no sampler, no backend unless the test sets one.
//
//   StepBench b(R"({"step": "create_users", "count": 2})");
//   b.port.answer(PortCall::create_user, ...);
//   b.run();                                // the step (the last one given)
//   CHECK(b.metric("create_users.users") == 2);
#pragma once

#include "fake_port.hpp"
#include "rundir/run_directory.hpp"
#include "scenario/rep_environment.hpp"
#include "scenario/rep_runner.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/steps/rep_context.hpp"
#include "../temp_dir.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace stand::test {

// A scenario of one phase "p" whose steps are `steps` (JSON objects, comma
// separated), for the plugin "fake"; `extra` adds top-level keys.
inline std::string scenario_with(const std::string& steps, const std::string& extra = "") {
    return R"({"schema_version": 1, "name": "t", "plugins": ["fake"], )" + extra +
           R"("phases": [{"name": "p", "steps": [)" + steps + "]}]}";
}

class StepBench {
public:
    explicit StepBench(const std::string& steps, const std::string& extra = "")
        : scenario(scenario::parse_scenario_text(scenario_with(steps, extra), "t.json")),
          planned{1, 0, "fake_r1"},
          dir(temp.path()),
          env{scenario, planned, {}, dir, host::HostConfig{temp.path(), false, false, {}, {}, {}, {}}, nullptr,
              interrupted, {}, {}, nullptr, {}, nullptr, nullptr, {}, nullptr, false},
          ctx(env, port, [this](const scenario::Step& s) { scenario::run_step(ctx, s); }) {
        dir.create_layout();
    }

    const scenario::Step& step(std::size_t index) const { return scenario.phases.at(0).steps.at(index); }
    std::size_t steps() const { return scenario.phases.at(0).steps.size(); }
    // Runs the steps in order, as a repetition does (scenario::run_step;
    // once the run's interrupt is set no further step begins, as in run_phases).
    void run_all() {
        for (std::size_t i = 0; i < steps(); ++i) {
            ctx.throw_if_interrupted();
            scenario::run_step(ctx, step(i));
        }
    }
    // Runs step `index` alone.
    void run(std::size_t index) { scenario::run_step(ctx, step(index)); }
    // The StepFailure's message; "" when the steps ran through.
    std::string failure_of_all() {
        try {
            run_all();
        } catch (const scenario::StepFailure& e) {
            return e.what();
        }
        return "";
    }
    // The StepFailure's message of step `index` run alone; "" when it ran through.
    std::string failure_of(std::size_t index) {
        try {
            run(index);
        } catch (const scenario::StepFailure& e) {
            return e.what();
        }
        return "";
    }
    struct TimedFailure {
        std::string failure;  // "" when the steps ran through
        std::chrono::steady_clock::duration took;
    };
    // Runs the steps while, on another thread, `event` happens `after` into them.
    TimedFailure failure_of_all_with_event_after(std::chrono::milliseconds after, const std::function<void()>& event) {
        std::thread meanwhile([&event, after] {
            std::this_thread::sleep_for(after);
            event();
        });
        const auto t0 = std::chrono::steady_clock::now();
        std::string failure = failure_of_all();
        const auto took = std::chrono::steady_clock::now() - t0;
        meanwhile.join();
        return {std::move(failure), took};
    }
    // Runs the steps with the run's interrupt set `after` into them, as Ctrl-C does.
    TimedFailure failure_of_all_interrupted_after(std::chrono::milliseconds after) {
        return failure_of_all_with_event_after(after, [this] { interrupted = true; });
    }
    std::optional<double> metric(const std::string& key) const {
        if (const auto* v = ctx.record.metrics.if_contains(key)) return v->to_number<double>();
        return std::nullopt;
    }
    // The findings' ids, in order.
    std::vector<std::string> finding_ids() const {
        std::vector<std::string> out;
        for (const auto& f : ctx.record.findings)
            if (const auto* id = f.as_object().if_contains("id")) out.emplace_back(id->as_string());
        return out;
    }

    const boost::json::object& load_of(const std::string& step) const {
        return ctx.record.loads.at(step).as_object();
    }
    std::string finding_message(std::size_t index) const {
        return std::string(ctx.record.findings.at(index).at("message").as_string());
    }

    // What a test's setup must keep alive as long as the bench (a server).
    std::vector<std::shared_ptr<void>> keep;
    TempDir temp;
    scenario::Scenario scenario;
    scenario::PlannedRep planned;
    rundir::RunDirectory dir;
    std::atomic<bool> interrupted{false};
    scenario::RepEnvironment env;
    FakePort port;
    scenario::RepContext ctx;
};

}  // namespace stand::test
