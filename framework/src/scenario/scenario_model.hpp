// The parsed, validated form of a scenario file (see scenarios/README.md for
// the JSON). Everything here has passed validation: the engine never checks
// user input again.
#pragma once

#include <boost/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <memory>
#include <string>
#include <variant>
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
struct InstallStep {};
struct StartStep {};
struct StopStep {};
struct WipeStep {};
struct WaitReadyStep {
    std::chrono::milliseconds interval{50};
    std::chrono::milliseconds per_try_timeout{2000};
};
struct SleepStep {
    Seconds duration{0};
};
struct IdleStep {
    Seconds duration{0};
};
// Restart the system and time it until the readiness request succeeds again.
struct RestartStep {
    std::chrono::milliseconds interval{50};
    std::chrono::milliseconds per_try_timeout{2000};
    // Also time until the panel's admin API answers (panel.admin_call), not
    // only its readiness request (seed onebox phase E).
    bool admin_api = false;
};
// stand.panel/1: the one-time setup (admin, inbound, group ...), timed.
struct BootstrapStep {};

// stand.panel/1: `count` users "<prefix>1".."<prefix>N", one call at a time;
// they become the repetition's users (the links of a subscriptions load).
struct CreateUsersStep {
    std::uint32_t count = 1;
    std::string prefix = "user";
};

// The on-disk size of the plugin's data dirs (lifecycle facts "data_dirs").
struct DiskUsageStep {};

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
};
// stand.proxy/1: configure() with knobs the host composes: `knobs` as
// given, the scenario backend as the upstream unless `knobs` names upstreams,
// and the shorthands below (see scenarios/README.md).
struct ConfigureStep {
    boost::json::object knobs;
    // Absent: not sent (the plugin keeps what it has); null: the proxy's own
    // default; true/false: the pool on or off.
    std::optional<boost::json::value> upstream_keepalive;
    // A key type of tls::known_key_types(): the host's shared test
    // certificate of that type; "off": plain HTTP.
    std::optional<std::string> tls;
    std::optional<bool> websocket;
};
// Websocket echo through the plugin's endpoint (ws:// only): `connections`
// clients each upgrade at `path` and echo `message_bytes` in a loop.
struct WebsocketStep {
    Seconds duration{10};
    std::uint32_t connections = 200;
    std::uint32_t message_bytes = 64;
    std::string path = "/ws";
};
// `connections` idle connections to the plugin's endpoint held for `hold`:
// how many the system keeps.
struct HoldIdleStep {
    std::uint32_t connections = 1000;
    Seconds hold{10};
};
struct ProbeStep {
    std::string job;
    boost::json::object params;
};
struct Step;
// Where a Hysteria 2 client gets its link: the given hysteria2:// link, or
// the subscription of a created user (its first hysteria2:// line).
struct TunnelSource {
    std::string server;      // a hysteria2:// link; empty: from the subscription
    std::uint32_t user = 0;  // the created user's index (tunnel_throughput)
    std::string sink;        // host:port the server dials; empty: the scenario's backend
    std::string cc = "bbr";
};
// One tunnel with `streams` /zero downloads and a /small probe every
// probe_interval; with `during`, that step runs alongside it, starting
// during_after into the tunnel (the one-server scenario's D and E).
struct TunnelStep {
    TunnelSource source;
    std::uint32_t streams = 1;
    Seconds duration{30};
    std::chrono::milliseconds probe_interval{97};
    double below_mbit = 0;  // 0: half the median second
    std::shared_ptr<const Step> during;
    Seconds during_after{0};
};
// `clients` tunnels, client i with user i's link (or `server` with each
// user's auth), connecting over `ramp`, a /small every `every`.
struct ManyClientsStep {
    TunnelSource source;
    std::uint32_t clients = 400;
    Seconds duration{60};
    Seconds ramp{20};
    Seconds every{2};
};

using StepAction = std::variant<InstallStep, StartStep, StopStep, WipeStep, WaitReadyStep, SleepStep, IdleStep,
                                RestartStep, LoadStep, ProbeStep, BootstrapStep, CreateUsersStep, DiskUsageStep,
                                ConfigureStep, WebsocketStep, HoldIdleStep, TunnelStep, ManyClientsStep>;

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

// A row of a report table: label, metric key, printf format.
struct MetricRow {
    std::string label;
    std::string metric;
    std::string format = "%.2f";
    std::string ratio_of;  // "a.x": the cell also shows a.x / this value, "(29.9x)"
};

struct Table {
    std::string title;
    // "rows": a row per metric, a column per plugin; "wide" (seed 004's
    // shape): a line per plugin with values, a column per metric.
    std::string layout = "rows";
    std::vector<MetricRow> rows;
};

// The host-built backend (`stand backend`), one per repetition in its own
// group: the upstream of the proxies' configure steps.
struct BackendSpec {
    std::uint32_t body_bytes = 64;
    std::uint32_t threads = 1;
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
    boost::json::array spread_ratios;  // normalized by parse_spread_ratios, stored in run.json
    boost::json::object params;  // the parameter values used (after --param)
};

}  // namespace stand::scenario
