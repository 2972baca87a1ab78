// The parsed, validated form of a scenario file (see scenarios/README.md for
// the JSON). Everything here has passed validation: the engine never checks
// user input again.
#pragma once

#include "rundir/run_tables.hpp"

#include "fleet/ssh_target.hpp"

#include <boost/json.hpp>

#include <any>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace stand::scenario {

struct BoxSpec {
    std::optional<double> vcpu;               // CPU quota in cores (0.5 = half a core)
    std::optional<std::uint64_t> memory_bytes;
    std::optional<std::uint64_t> swap_bytes;
    std::optional<std::string> pin;           // cpuset, e.g. "0" or "0-1"
    // Disk throttling of the disk under `path` (the host finds the device).
    struct Io {
        std::string path;
        std::optional<std::uint64_t> read_iops, write_iops, read_bps, write_bps;
    };
    std::optional<Io> io;
};

struct PluginRef {
    std::string id;                // plugin id (or a path to a .so)
    boost::json::object config;    // passed to create()
    std::string label;             // column name in reports; defaults to id
};

enum class OrderMode { kRotate, kShuffle, kFixed };

struct Order {
    OrderMode mode = OrderMode::kRotate;
    std::uint64_t seed = 1;  // kShuffle: order of rep r = shuffle(plugins, seed + r)
};

using Seconds = std::chrono::duration<double>;

// --- steps -----------------------------------------------------------------
// A step's own keys: the struct its kind defines (scenario/steps/<family>.hpp),
// held type-erased so that a new kind is its own files and a registry line.
class StepAction {
public:
    StepAction() = default;
    template <class T, class = std::enable_if_t<!std::is_same_v<std::decay_t<T>, StepAction>>>
    StepAction(T value) : value_(std::move(value)) {}  // NOLINT: implicit, as `return LoadStep{...}` reads

    template <class T>
    const T* get_if() const { return std::any_cast<T>(&value_); }
    template <class T>
    T* get_if() { return std::any_cast<T>(&value_); }
    template <class T>
    bool holds() const { return get_if<T>() != nullptr; }
    // The kind's struct; std::bad_any_cast when it is another kind's.
    template <class T>
    const T& get() const { return std::any_cast<const T&>(value_); }

private:
    std::any value_;
};

struct Step {
    std::string kind;   // "start", "load", ... as written in the file
    std::string name;   // metric prefix; defaults to kind + index where it produces metrics
    std::chrono::milliseconds timeout{60000};
    StepAction action;
    std::string json_path;  // "$.phases[0].steps[2]", for messages
    // Run the step only for the plugin with this label (a battery mixes a
    // disk probe and a CPU probe in one scenario); empty: every plugin.
    std::string plugin;
};

struct Phase {
    std::string name;
    std::vector<Step> steps;
};

// A report table (run.json holds the same model: rundir/run_tables.hpp).
using MetricRow = rundir::TableRow;
using Table = rundir::RunTable;

// The host-built backend (`stand backend`), one per repetition in its own
// group: the upstream of the proxies' configure steps.
struct BackendSpec {
    std::uint32_t body_bytes = 64;
    std::uint32_t threads = 1;
    // "host": on this fleet host (fleetrun/remote_backend.hpp), named
    // "backend"; absent: here.
    std::optional<fleet::SshTarget> host;
};

// "repetitions": {"min": 3, "max": 10, "until": {"metric": ..., "ci_width_pct": 5}}:
// each plugin runs from `min` until the bootstrap interval of the metric's
// median is narrow enough, or Scenario::repetitions (the max) is reached
// (scenario/adaptive_reps.hpp, stats/precision_stop.hpp).
struct AdaptiveRepetitions {
    std::uint32_t min = 1;
    std::string metric;
    double ci_width_pct = 5;
};

struct Scenario {
    std::filesystem::path file;
    std::string text;  // the file as given, before --param: a run keeps it for --resume
    std::string name;
    std::string description;
    std::vector<PluginRef> plugins;
    BoxSpec box;
    BoxSpec client;
    std::uint32_t repetitions = 1;  // with `adaptive`: the most a plugin runs
    std::optional<AdaptiveRepetitions> adaptive;
    Order order;
    std::chrono::milliseconds sample_interval{1000};
    bool allow_remote = false;
    std::optional<BackendSpec> backend;
    // "auto": the box, the backend and the generator on disjoint CPUs
    // (box::place_on); "none": wherever the scheduler puts them.
    bool auto_placement = false;
    std::vector<Phase> phases;
    std::vector<Table> tables;
    boost::json::array checks;   // normalized by parse_checks, stored in run.json
    boost::json::array thresholds;  // normalized by parse_thresholds, stored in run.json
    boost::json::array spread_ratios;  // normalized by parse_spread_ratios, stored in run.json
    boost::json::object params;  // the parameter values used (after --param)
    // The parameter each "${name}" value came from, by JSON path: a message
    // can name the --param that sets a key.
    std::map<std::string, std::string> param_sources;
    // "hosts": where `stand run` runs the whole scenario, once per host (with
    // --host, which adds or replaces by name); empty: this machine.
    std::vector<fleet::SshTarget> hosts;
    // "generators": hosts a load step may send its load from (its
    // "generators" names them; --generator adds or replaces by name); the
    // scenario itself runs here.
    std::vector<fleet::SshTarget> generators;
};

}  // namespace stand::scenario
