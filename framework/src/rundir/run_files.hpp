// The schema of the files a run writes: a repetition's JSON
// (reps/<key>.json) and results.json, each versioned, each key declared
// once here with its JSON type and whether it is always there. Writers and
// readers use these names, the writer checks what it writes, the report
// checks what it reads, and docs/run-files.md documents the same keys (a
// unit test holds the two together).
#pragma once

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace stand::rundir {

inline constexpr int kRepSchemaVersion = 1;
inline constexpr int kResultsSchemaVersion = 1;

// The keys of reps/<key>.json.
namespace rep_key {
inline constexpr std::string_view kSchemaVersion = "schema_version";
inline constexpr std::string_view kKey = "key";
inline constexpr std::string_view kPlugin = "plugin";
inline constexpr std::string_view kPluginId = "plugin_id";
inline constexpr std::string_view kRep = "rep";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kReason = "reason";
inline constexpr std::string_view kFailedStep = "failed_step";
inline constexpr std::string_view kMachine = "machine";
inline constexpr std::string_view kBox = "box";
inline constexpr std::string_view kBoxPlan = "box_plan";
inline constexpr std::string_view kBoxDrift = "box_drift";
inline constexpr std::string_view kBackend = "backend";
inline constexpr std::string_view kPlacement = "placement";
inline constexpr std::string_view kWorkerLog = "worker_log";
inline constexpr std::string_view kMetrics = "metrics";
inline constexpr std::string_view kSteps = "steps";
inline constexpr std::string_view kPhases = "phases";
inline constexpr std::string_view kLoads = "loads";
inline constexpr std::string_view kWindows = "windows";
inline constexpr std::string_view kFindings = "findings";
inline constexpr std::string_view kProbeFacts = "probe_facts";
inline constexpr std::string_view kNotes = "notes";
inline constexpr std::string_view kProxyDefaults = "proxy_defaults";
inline constexpr std::string_view kProxyDefaultsSet = "proxy_defaults_set";
inline constexpr std::string_view kTlsSessions = "tls_sessions";
inline constexpr std::string_view kCapacity = "capacity";
inline constexpr std::string_view kFacts = "facts";
inline constexpr std::string_view kHttpCalls = "http_calls";
inline constexpr std::string_view kHost = "host";
inline constexpr std::string_view kGoRuntimes = "go_runtimes";
inline constexpr std::string_view kGoRuntimeNotes = "go_runtime_notes";
}  // namespace rep_key

// A repetition's "status".
namespace rep_status {
inline constexpr std::string_view kRunning = "running";
inline constexpr std::string_view kOk = "ok";
inline constexpr std::string_view kFailed = "failed";
inline constexpr std::string_view kInterrupted = "interrupted";
}  // namespace rep_status

// The keys of results.json.
namespace results_key {
inline constexpr std::string_view kSchemaVersion = "schema_version";
inline constexpr std::string_view kRun = "run";
inline constexpr std::string_view kSummary = "summary";
inline constexpr std::string_view kFindings = "findings";
inline constexpr std::string_view kChecks = "checks";
inline constexpr std::string_view kReps = "reps";
inline constexpr std::string_view kSpreadRatios = "spread_ratios";
inline constexpr std::string_view kThresholds = "thresholds";
}  // namespace results_key

struct FieldSpec {
    std::string_view key;
    boost::json::kind type;  // int64 also admits uint64; double admits any number
    bool required = false;
    std::string_view meaning;
};

const std::vector<FieldSpec>& rep_fields();
const std::vector<FieldSpec>& results_fields();

// What in `doc` breaks its schema, each "<key>: <what>"; empty when none.
// Beyond the top-level keys: metrics are finite numbers, steps {path, kind, name,
// seconds}, findings {id, scope, message}, status one of rep_status.
std::vector<std::string> rep_problems(const boost::json::object& doc);
std::vector<std::string> results_problems(const boost::json::object& doc);

// doc[key] for a schema name.
inline const boost::json::value* field(const boost::json::object& doc, std::string_view key) {
    return doc.if_contains(boost::json::string_view(key.data(), key.size()));
}

}  // namespace stand::rundir
