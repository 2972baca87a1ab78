// What one repetition runs in: the measured box and its sampler, and the
// scenario's backend in its own box. Built in that order before the
// repetition; torn down in the reverse order by one owner, whatever happens.
#pragma once

#include "box/box.hpp"
#include "box/cpu_placement.hpp"
#include "rundir/run_directory.hpp"
#include "sampler/sampler.hpp"
#include "scenario/scenario_model.hpp"
#include "fleet/ssh_session.hpp"
#include "target/backend.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace stand::scenario {

// The boxes every repetition of a run gets: read once from the scenario.
struct RunBoxes {
    box::CgroupLayout layout;
    box::BoxPlan measured;
    box::BoxPlan backend;
    std::optional<box::CpuPlacement> placement;  // "placement": "auto"
};

// Throws RepSetupError naming the scenario's box (or the machine) when the
// plan cannot be made: no usable cgroups, a bad box, no CPU list.
RunBoxes plan_run_boxes(const Scenario& scenario);

// A repetition could not be set up: box drift, a backend that did not start.
struct RepSetupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class RepResources {
public:
    // Creates the measured box (its effective settings, plan and any drift
    // into `preface`, a box-drift finding into `findings`), starts its
    // sampler, then the backend. Throws RepSetupError on drift without
    // `allow_drift` or when the backend does not start; what was built is
    // torn down then.
    // With `backend_host` (the scenario's backend "host", opened and
    // checked), the backend runs there.
    RepResources(const Scenario& scenario, const RunBoxes& boxes, const rundir::RunDirectory& dir,
                 const std::string& rep_key, bool allow_drift, boost::json::object& preface,
                 boost::json::array& findings, const fleet::SshSession* backend_host = nullptr);
    ~RepResources();
    RepResources(const RepResources&) = delete;
    RepResources& operator=(const RepResources&) = delete;

    // Null without cgroups.
    const box::Box* measured() const { return measured_.get(); }
    sampler::Sampler* sampler() const { return sampler_.get(); }
    target::Backend* backend() const { return backend_.get(); }

    // Tears everything down (the backend, its box, the sampler, the measured
    // box), writing the samples to `samples_csv` once the sampler stopped.
    void finish(const std::filesystem::path& samples_csv);

private:
    void tear_down() noexcept;

    std::unique_ptr<box::Box> measured_;
    std::unique_ptr<sampler::Sampler> sampler_;
    std::unique_ptr<box::Box> backend_box_;
    std::unique_ptr<target::Backend> backend_;
};

}  // namespace stand::scenario
