#include "rundir/run_files.hpp"

#include <algorithm>
#include <cmath>

namespace stand::rundir {
namespace {

namespace json = boost::json;
using K = json::kind;

bool has_type(const json::value& v, K type) {
    switch (type) {
        case K::int64: return v.is_int64() || v.is_uint64();
        case K::double_: return v.is_number();
        default: return v.kind() == type;
    }
}

const char* type_name(K type) {
    switch (type) {
        case K::object: return "an object";
        case K::array: return "an array";
        case K::string: return "a string";
        case K::int64: return "an integer";
        case K::double_: return "a number";
        case K::bool_: return "true or false";
        default: return "null";
    }
}

std::string key_text(std::string_view key) { return std::string(key); }

void check_fields(const json::object& doc, const std::vector<FieldSpec>& fields, std::vector<std::string>& out) {
    for (const FieldSpec& f : fields) {
        const json::value* v = field(doc, f.key);
        if (v == nullptr) {
            if (f.required) out.push_back(key_text(f.key) + ": missing");
        } else if (!has_type(*v, f.type)) {
            out.push_back(key_text(f.key) + ": expected " + type_name(f.type));
        }
    }
    for (const auto& [key, value] : doc) {
        (void)value;
        const bool declared = std::any_of(fields.begin(), fields.end(), [&](const FieldSpec& f) { return f.key == key; });
        if (!declared) out.push_back(std::string(key) + ": not a key of this file's schema");
    }
}

// Each element an object whose `keys` are strings (or, for "seconds", numbers).
void check_entries(const json::object& doc, std::string_view list_key, std::initializer_list<std::string_view> keys,
                   std::vector<std::string>& out) {
    const json::value* list = field(doc, list_key);
    if (list == nullptr || !list->is_array()) return;
    const auto& items = list->get_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string where = key_text(list_key) + "[" + std::to_string(i) + "]";
        const json::object* o = items[i].if_object();
        if (o == nullptr) {
            out.push_back(where + ": expected an object");
            continue;
        }
        for (std::string_view k : keys) {
            const json::value* v = field(*o, k);
            const bool ok = v != nullptr && (k == "seconds" ? v->is_number() : v->is_string());
            if (!ok) out.push_back(where + "." + key_text(k) + (k == "seconds" ? ": expected a number" : ": expected a string"));
        }
    }
}

}  // namespace

const std::vector<FieldSpec>& rep_fields() {
    using namespace rep_key;
    static const std::vector<FieldSpec> fields = {
        // absent in files written before it was added (the same layout as 1)
        {kSchemaVersion, K::int64, false, "this file's schema version (1); always written"},
        {kKey, K::string, true, "the repetition's key, `<plugin>_r<n>`: the file's name"},
        {kPlugin, K::string, true, "the plugin's label (the report's column)"},
        {kPluginId, K::string, false, "the plugin's id or path"},
        {kRep, K::int64, true, "the repetition's number, from 1"},
        {kStatus, K::string, true, "running, ok, failed or interrupted"},
        {kReason, K::string, false, "why it failed or was interrupted"},
        {kFailedStep, K::string, false, "the step that failed: its JSON path, kind and name"},
        {kMachine, K::object, false, "the machine's load before the repetition"},
        {kBox, K::object, false, "the measured box as set up (cgroup settings read back)"},
        {kBoxPlan, K::object, false, "the box the scenario asked for"},
        {kBoxDrift, K::array, false, "settings of the box that differ from the plan (with --allow-drift)"},
        {kBackend, K::object, false, "the scenario's backend (listen address, threads, pid)"},
        {kPlacement, K::object, false, "the CPUs of the box, the backend and the generator"},
        {kWorkerLog, K::string, false, "the plugin worker's stderr log"},
        {kMetrics, K::object, false, "`\"<step>.<metric>\"` -> number"},
        {kSteps, K::array, false, "each step run: {path, kind, name, seconds}"},
        {kPhases, K::array, false, "each phase: {name, seconds, host_cpu_s}"},
        {kLoads, K::object, false, "step name -> what its generator measured (`stand load --json`'s stand.load/1: histograms, per-second series, "
                                          "`errors` by kind and `error_reasons` by kind and reason; `urls` and `requests_per_link` "
                                          "list up to 1000 links, beyond that `urls_not_listed` counts the rest and "
                                          "`requests_per_link` is null; `requests_per_link_summary` (links, min, max, "
                                          "never_requested) is always there; `hdr_log`: the step's latency as an "
                                          "HdrHistogram interval log, `hdr/<key>.<step>.hlog`, when it ran from here)"},
        {kWindows, K::object, false, "step name -> the sampler's window over the step"},
        {kFindings, K::array, false, "the detectors that fired: {id, scope, message}"},
        {kProbeFacts, K::object, false, "run_probe step name -> the probe's facts"},
        {kNotes, K::array, false, "the probes' caveats"},
        {kProxyDefaults, K::object, false, "configure step name -> the proxy's effective defaults"},
        {kProxyDefaultsSet, K::object, false, "configure step name -> the settings the scenario had set"},
        {kTlsSessions, K::object, false, "load step name -> protocol, cipher, ALPN and key type served"},
        {kCapacity, K::object, false, "capacity step name -> the search: {objective, plan, end, summary, best_rate, "
                                      "first_failed_rate, broke, levels: [{offered_rps, rps, p50_ms, p95_ms, p99_ms, "
                                      "error_pct, late_pct, behind_pct, box_cpu_pct, mem_max_mib, client_cpu_pct, "
                                      "client_running_pct, client_waiting_pct, met, broke, generator_saturated, "
                                      "generator_limited, disturbed}]}"},
        {kFacts, K::object, false, "the plugin's facts at the end (versions, config, data dirs)"},
        {kHttpCalls, K::array, false, "the plugin's HTTP calls (method, URL, status, time)"},
        {kHost, K::object, false, "the host process's peak RSS and CPU"},
        {kGoRuntimes, K::array, false, "the Go programs seen in the box"},
        {kGoRuntimeNotes, K::array, false, "caveats about those Go runtimes"},
    };
    return fields;
}

const std::vector<FieldSpec>& results_fields() {
    using namespace results_key;
    static const std::vector<FieldSpec> fields = {
        {kSchemaVersion, K::int64, true, "this file's schema version (1)"},
        {kRun, K::object, true, "run.json: what was asked"},
        {kSummary, K::object, true, "plugin -> metric -> {n, median, min, max, ci95_low, ci95_high, ...}"},
        {kFindings, K::array, true, "the run's findings and every repetition's: {id, scope, message}"},
        {kChecks, K::array, true, "the scenario's checks: {check, plugin, status, message}"},
        {kReps, K::array, true, "every repetition's JSON (reps/<key>.json)"},
        {kSpreadRatios, K::array, false, "the scenario's spread_ratios, computed"},
        {kThresholds, K::array, false, "the scenario's thresholds, per plugin: {name, metric, plugin, bound, limit, "
                                       "on, status, value, n, crossed_reps, message}"},
    };
    return fields;
}

std::vector<std::string> rep_problems(const json::object& doc) {
    std::vector<std::string> out;
    check_fields(doc, rep_fields(), out);
    if (const json::value* s = field(doc, rep_key::kStatus); s && s->is_string()) {
        const std::string_view status(s->get_string());
        if (status != rep_status::kRunning && status != rep_status::kOk && status != rep_status::kFailed &&
            status != rep_status::kInterrupted)
            out.push_back("status: \"" + std::string(status) + "\" is not running, ok, failed or interrupted");
    }
    if (const json::value* m = field(doc, rep_key::kMetrics); m && m->is_object())
        for (const auto& [name, value] : m->get_object()) {
            if (!value.is_number()) out.push_back("metrics." + std::string(name) + ": expected a number");
            else if (!std::isfinite(value.to_number<double>()))  // 1e999 is read as infinity
                out.push_back("metrics." + std::string(name) +
                              ": expected a number within a double's range (at most about 1.8e308)");
        }
    check_entries(doc, rep_key::kSteps, {"path", "kind", "name", "seconds"}, out);
    check_entries(doc, rep_key::kFindings, {"id", "scope", "message"}, out);
    return out;
}

std::vector<std::string> results_problems(const json::object& doc) {
    std::vector<std::string> out;
    check_fields(doc, results_fields(), out);
    check_entries(doc, results_key::kFindings, {"id", "scope", "message"}, out);
    if (const json::value* reps = field(doc, results_key::kReps); reps && reps->is_array()) {
        const auto& items = reps->get_array();
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (!items[i].is_object()) {
                out.push_back("reps[" + std::to_string(i) + "]: expected an object");
                continue;
            }
            for (const auto& p : rep_problems(items[i].get_object()))
                out.push_back("reps[" + std::to_string(i) + "]." + p);
        }
    }
    return out;
}

}  // namespace stand::rundir
