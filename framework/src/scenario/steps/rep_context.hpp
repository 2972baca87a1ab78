// What the steps of one repetition share, passed to every StepKind::run:
// the plugin's port (plugin_port.hpp), the environment (box, sampler,
// backend), the record being written (RepRecord: the repetition's JSON), the
// state one step hands the next (StepHandover), and the helpers several
// kinds use.
#pragma once

#include "box/box_processes.hpp"
#include "detect/finding.hpp"
#include "detect/probe_aliasing.hpp"
#include "host/http/http_service.hpp"
#include "sampler/sampler.hpp"
#include "scenario/steps/plugin_port.hpp"
#include "scenario/steps/proxy_setup.hpp"
#include "scenario/rep_environment.hpp"
#include "scenario/scenario_model.hpp"
#include "target/backend_process.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::scenario {

using RepClock = std::chrono::steady_clock;

// Ends the repetition: the step and this reason are recorded.
struct StepFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The repetition's JSON as it is built: "metrics" "<step>.<suffix>" ->
// number, "loads" and "windows" per step, "findings", and what the proxy and
// probe steps report. Written after every step.
struct RepRecord {
    boost::json::object doc;  // the preface, then facts, phases, status, ...
    boost::json::object metrics;
    boost::json::array steps;
    boost::json::object loads, windows;
    boost::json::array findings;
    boost::json::object probe_facts;     // run_probe step name -> the probe's facts
    boost::json::array notes;            // the probes' caveats, each once
    boost::json::object proxy_defaults;  // configure step name -> the proxy's effective_defaults()
    boost::json::object proxy_set;       // configure step name -> the settings the scenario had set by then
    boost::json::object tls_sessions;    // load step name -> protocol, cipher, ALPN, key type served
    boost::json::object capacity;        // capacity step name -> its search, level by level

    void put(const std::string& key, double value) { metrics[key] = value; }
    void finding(const detect::Finding& f) { findings.push_back(f.to_json()); }
    // doc with every part above, status set.
    boost::json::object to_json(const char* status) const;
};

struct RepUser {
    std::string id;
    boost::json::object subscription;  // {method, url, headers}
};

struct Endpoint {
    bool tls = false;
    std::string host;
    std::uint16_t port = 0;
};

// "; first: <the first>" for a finding's text; "" when there is none.
std::string first_error(const std::vector<std::string>& errors);

// What one step leaves for the next, for the whole repetition.
struct StepHandover {
    std::vector<RepUser> users;            // created by create_users steps, in order
    ProxyTls proxy_tls;                    // what the last configure step set up
    std::set<std::string> settings_set;    // proxy knobs set so far (they persist between configure steps)
    std::optional<bool> upstream_keepalive;  // the backend pool as a configure step set it; nullopt: the proxy's default
    std::chrono::steady_clock::time_point last_start = std::chrono::steady_clock::now();  // the last start step, for wait_ready
};

class RepContext {
public:
    RepContext(RepEnvironment& env, PluginPort& port, std::function<void(const Step&)> run_nested);

    RepEnvironment& env;
    PluginPort& port;
    host::HttpService http;  // the scenario's allow_remote
    RepRecord record;

    StepHandover state;  // what one step leaves for the next
    const RepClock::time_point rep_start = RepClock::now();

    const PluginRef& plugin() const;
    // "<label> rep <n>, step <name>": where a finding was made.
    std::string scope(const Step& s) const;
    void put(const std::string& key, double value) { record.put(key, value); }

    // The output of a call that must succeed; StepFailure names the call.
    static boost::json::value must(PortReply reply);
    // Sleeps, ending early with StepFailure("interrupted").
    void sleep_for(Seconds d);
    void throw_if_interrupted() const;
    // The start of a measured window (Sampler::window_start(): a counter's
    // delta over the window begins at its edge).
    RepClock::time_point window_start();
    // The sampler's window over [t0, t1] (t0 from window_start()), recorded
    // under windows.<name>; it ends with a sample of every field taken now,
    // at which the window ends (just after t1).
    // None without a sampler or when too short (a finding says so).
    std::optional<sampler::WindowStats> window(RepClock::time_point t0, RepClock::time_point t1, const std::string& name);
    // The plugin's readiness request {url, ...}.
    boost::json::object readiness(std::chrono::milliseconds timeout);
    // "scheme://host:port": proxy.endpoint(), else the readiness URL's.
    std::string endpoint_base(const Step& s);
    Endpoint endpoint(const Step& s);
    target::BackendStats backend_stats(const Step& s);
    // The measured box's processes (none without a box).
    std::vector<box::BoxProcess> measured_processes() const;
    // The processes the step saw end and start (loads.<step>.box_processes).
    void record_process_changes(const Step& s, const std::vector<box::BoxProcess>& before);
    // probe-aliasing: a periodic probe in step with the box's CFS period while it was throttled.
    void check_aliasing(const Step& s, const detect::PeriodicProbe& probe, const std::optional<sampler::WindowStats>& w);
    // A step run inside another (tunnel_throughput's `during`), recorded as its own.
    void run_nested(const Step& s) { run_nested_(s); }

private:
    std::function<void(const Step&)> run_nested_;
};

}  // namespace stand::scenario
