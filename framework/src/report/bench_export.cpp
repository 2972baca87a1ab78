#include "report/bench_export.hpp"

#include "report/report_error.hpp"
#include "rundir/run_files.hpp"
#include "rundir/run_tables.hpp"
#include "text/number_format.hpp"

#include <map>
#include <set>
#include <stdexcept>

namespace stand::report {
namespace {

namespace json = boost::json;

// Bencher's limits on the names that identify a benchmark and a measure
// (docs/reference/bencher-metric-format, "Order of Precedence").
constexpr std::size_t kBencherBenchmarkNameMax = 1024;
constexpr std::size_t kBencherMeasureNameMax = 64;

// Why metrics were left out -> which.
class LeftOut {
public:
    void add(const std::string& why, const std::string& metric) { by_reason_[why].insert(metric); }
    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        for (const auto& [why, metrics] : by_reason_) {
            std::string line = why + ":";
            for (const auto& m : metrics) line += (line.back() == ':' ? " " : ", ") + m;
            out.push_back(std::move(line));
        }
        return out;
    }

private:
    std::map<std::string, std::set<std::string>> by_reason_;
};

double number(const json::object& s, const char* key) { return s.at(key).to_number<double>(); }

// A summary without numbers to export: results.json writes a statistic
// beyond a double as null.
constexpr const char* kNoMedian = "no median, min and max as numbers in results.json (beyond a double)";

bool has_numbers(const json::object& s) {
    for (const char* key : {"median", "min", "max"})
        if (const json::value* v = s.if_contains(key); v == nullptr || !v->is_number()) return false;
    return true;
}

const json::object& summary_of(const json::object& results) {
    return results.at(rundir::results_key::kSummary).as_object();
}

BenchExport bencher_metric_format(const json::object& results) {
    BenchExport out;
    json::object doc;
    LeftOut left;
    for (const auto& [plugin, metrics] : summary_of(results)) {
        if (plugin.size() > kBencherBenchmarkNameMax) {
            left.add("plugin label longer than the 1024 characters Bencher allows a benchmark", std::string(plugin));
            continue;
        }
        json::object measures;
        for (const auto& [metric, s] : metrics.as_object()) {
            if (metric.size() > kBencherMeasureNameMax) {
                left.add("longer than the 64 characters Bencher allows a measure", std::string(metric));
                continue;
            }
            const auto& o = s.as_object();
            if (!has_numbers(o)) {
                left.add(kNoMedian, std::string(metric));
                continue;
            }
            measures[metric] = json::object{
                {"value", number(o, "median")}, {"lower_value", number(o, "min")}, {"upper_value", number(o, "max")}};
            ++out.values;
        }
        if (!measures.empty()) doc[plugin] = std::move(measures);
    }
    out.document = std::move(doc);
    out.left_out = left.lines();
    return out;
}

// What the scenario's table rows declare about a metric (the first row that says).
struct Declared {
    std::string better, unit;
    std::optional<text::PrintfFormat> format;
};

std::vector<rundir::RunTable> tables_of(const json::object& run) {
    try {
        return rundir::tables_of_run(run);
    } catch (const std::runtime_error& e) {
        throw ReportError("results.json: " + std::string(e.what()));
    }
}

std::map<std::string, Declared> declared_metrics(const json::object& run) {
    std::map<std::string, Declared> out;
    for (const auto& table : tables_of(run))
        for (const auto& row : table.rows) {
            Declared& d = out[row.metric];
            if (d.better.empty()) d.better = row.better;
            if (d.unit.empty()) d.unit = row.unit;
            if (d.format) continue;
            try {
                d.format = text::PrintfFormat(row.format);
            } catch (const std::invalid_argument& e) {
                throw ReportError("results.json: run.tables: the row of " + row.metric + ": format \"" + row.format +
                                  "\": " + e.what());
            }
        }
    return out;
}

// One entry of github-action-benchmark's custom JSON (its BenchmarkResult).
json::object custom_entry(const std::string& plugin, const std::string& metric, const json::object& s, const Declared& d) {
    json::object e{{"name", plugin + "/" + metric}, {"unit", d.unit}, {"value", number(s, "median")}};
    const auto n = s.at("n").to_number<std::int64_t>();
    if (n >= 2) e["range"] = "min " + d.format->apply(number(s, "min")) + ", max " + d.format->apply(number(s, "max"));
    std::string extra = "median of " + std::to_string(n) + (n == 1 ? " repetition" : " repetitions");
    if (s.at("ci95_low").is_number() && s.at("ci95_high").is_number())
        extra += "; 95 % bootstrap interval of the median " + d.format->apply(number(s, "ci95_low")) + " to " +
                 d.format->apply(number(s, "ci95_high"));
    e["extra"] = extra;
    return e;
}

BenchExport github_custom(const json::object& results, const std::string& wanted) {
    const auto declared = declared_metrics(results.at(rundir::results_key::kRun).as_object());
    BenchExport out;
    json::array entries;
    LeftOut left;
    for (const auto& [plugin, metrics] : summary_of(results))
        for (const auto& [metric, s] : metrics.as_object()) {
            const auto it = declared.find(std::string(metric));
            if (it == declared.end() || it->second.better.empty()) {
                left.add("no direction declared (a table row's \"better\" in the scenario)", std::string(metric));
                continue;
            }
            if (it->second.better != wanted) {
                left.add(it->second.better == "lower" ? "lower is better (customSmallerIsBetter)"
                                                      : "higher is better (customBiggerIsBetter)",
                         std::string(metric));
                continue;
            }
            if (!has_numbers(s.as_object())) {
                left.add(kNoMedian, std::string(metric));
                continue;
            }
            entries.push_back(custom_entry(std::string(plugin), std::string(metric), s.as_object(), it->second));
            ++out.values;
        }
    out.document = std::move(entries);
    out.left_out = left.lines();
    return out;
}

}  // namespace

std::optional<BenchFormat> bench_format_named(std::string_view name) {
    if (name == "bmf") return BenchFormat::bmf;
    if (name == "customSmallerIsBetter") return BenchFormat::smaller_is_better;
    if (name == "customBiggerIsBetter") return BenchFormat::bigger_is_better;
    return std::nullopt;
}

BenchExport export_bench_json(const json::object& results, BenchFormat format) {
    switch (format) {
        case BenchFormat::bmf: return bencher_metric_format(results);
        case BenchFormat::smaller_is_better: return github_custom(results, "lower");
        case BenchFormat::bigger_is_better: return github_custom(results, "higher");
    }
    throw std::logic_error("internal error: unknown BenchFormat");
}

}  // namespace stand::report
