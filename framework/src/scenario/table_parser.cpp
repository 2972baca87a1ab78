#include "scenario/table_parser.hpp"

#include "scenario/step_metrics.hpp"
#include "scenario/value_syntax.hpp"

namespace stand::scenario {
namespace {

namespace json = boost::json;

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

// Why `metric` is unknown, naming what would be accepted instead.
std::string metric_hint(std::string_view metric, const std::vector<Phase>& phases) {
    const std::string_view step_name = metric.substr(0, metric.find('.'));
    std::vector<std::string> with_metrics;
    for (const Phase& phase : phases)
        for (const Step& step : phase.steps) {
            const auto metrics = metrics_produced(step);
            if (step.name == step_name)
                return metrics.empty() ? "step " + step.name + " produces no metrics"
                                       : "step " + step.name + " produces " + join(metrics);
            if (!metrics.empty()) with_metrics.push_back(step.name);
        }
    if (with_metrics.empty()) return "no step produces metrics";
    return "no step is named " + json::serialize(json::string_view(step_name.data(), step_name.size())) +
           "; steps with metrics: " + join(with_metrics);
}

MetricRow parse_row(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    const ObjectReader r(v, place, "a table row", {"label", "metric", "format", "ratio_of"});
    MetricRow row;
    row.label = expect_string(r.require("label", "a non-empty string"), r.at("label"), true);
    const json::value& metric = r.require("metric", "a metric name such as \"load1.rps\"");
    row.metric = expect_string(metric, r.at("metric"), true);
    bool known = false;
    for (const Phase& phase : phases)
        for (const Step& step : phase.steps) known = known || produces_metric(step, row.metric);
    if (!known) r.at("metric").fail("a metric produced by a step (" + metric_hint(row.metric, phases) + ")", &metric);
    if (const json::value* ratio = r.find("ratio_of")) {
        row.ratio_of = expect_string(*ratio, r.at("ratio_of"), true);
        bool found = false;
        for (const Phase& phase : phases)
            for (const Step& step : phase.steps) found = found || produces_metric(step, row.ratio_of);
        if (!found) r.at("ratio_of").fail("a metric produced by a step (" + metric_hint(row.ratio_of, phases) + ")", ratio);
    }
    if (auto format = r.string("format")) {
        if (!is_double_format(*format))
            r.at("format").fail("one printf conversion of a number such as \"%.2f\"", r.find("format"));
        row.format = *format;
    }
    return row;
}

}  // namespace

std::vector<Table> parse_tables(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    std::vector<Table> tables;
    const json::array& list = expect_array(v, place, false);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const ObjectReader r(list[i], place.index(i), "a table", {"title", "rows", "layout"});
        Table table;
        table.title = expect_string(r.require("title", "a non-empty string"), r.at("title"), true);
        if (auto layout = r.string("layout")) {
            if (*layout != "rows" && *layout != "wide") r.at("layout").fail("\"rows\" or \"wide\"", r.find("layout"));
            table.layout = *layout;
        }
        const json::array& rows = expect_array(r.require("rows", "a non-empty array"), r.at("rows"), true);
        for (std::size_t j = 0; j < rows.size(); ++j) table.rows.push_back(parse_row(rows[j], r.at("rows").index(j), phases));
        tables.push_back(std::move(table));
    }
    return tables;
}

}  // namespace stand::scenario
