#include "scenario/table_parser.hpp"

#include "scenario/step_metrics.hpp"
#include "scenario/value_syntax.hpp"

#include <map>

namespace stand::scenario {
namespace {

namespace json = boost::json;

MetricRow parse_row(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    const ObjectReader r(v, place, "a table row", {"label", "metric", "format", "ratio_of", "better", "unit"});
    MetricRow row;
    row.label = expect_string(r.require("label", "a non-empty string"), r.at("label"), true);
    const json::value& metric = r.require("metric", "a metric name such as \"load1.rps\"");
    row.metric = expect_string(metric, r.at("metric"), true);
    if (!phases_produce_metric(phases, row.metric))
        r.at("metric").fail("a metric produced by a step (" + unknown_metric_hint(row.metric, phases) + ")", &metric);
    if (const json::value* ratio = r.find("ratio_of")) {
        row.ratio_of = expect_string(*ratio, r.at("ratio_of"), true);
        if (!phases_produce_metric(phases, row.ratio_of))
            r.at("ratio_of").fail("a metric produced by a step (" + unknown_metric_hint(row.ratio_of, phases) + ")",
                                  ratio);
    }
    if (auto format = r.string("format")) {
        if (!is_double_format(*format))
            r.at("format").fail("one printf conversion of a number such as \"%.2f\"", r.find("format"));
        row.format = *format;
    }
    if (auto better = r.string("better")) {
        if (*better != "lower" && *better != "higher") r.at("better").fail("\"lower\" or \"higher\"", r.find("better"));
        row.better = *better;
    }
    if (const json::value* unit = r.find("unit")) row.unit = expect_string(*unit, r.at("unit"), true);
    return row;
}

// A metric named by several rows has one direction and one unit: `row` may
// not contradict what an earlier row declared (`declared`: metric -> row).
void check_same_declarations(const MetricRow& row, const json::value& v, const JsonPlace& place,
                             std::map<std::string, MetricRow>& declared) {
    auto [it, first] = declared.try_emplace(row.metric, row);
    if (first) return;
    MetricRow& earlier = it->second;
    if (!row.better.empty() && !earlier.better.empty() && row.better != earlier.better)
        place.key("better").fail("\"" + earlier.better + "\", as an earlier row says for " + row.metric,
                                 v.as_object().if_contains("better"));
    if (!row.unit.empty() && !earlier.unit.empty() && row.unit != earlier.unit)
        place.key("unit").fail("\"" + earlier.unit + "\", as an earlier row says for " + row.metric,
                               v.as_object().if_contains("unit"));
    if (earlier.better.empty()) earlier.better = row.better;
    if (earlier.unit.empty()) earlier.unit = row.unit;
}

}  // namespace

std::vector<Table> parse_tables(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    std::vector<Table> tables;
    std::map<std::string, MetricRow> declared;
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
        for (std::size_t j = 0; j < rows.size(); ++j) {
            const JsonPlace row_place = r.at("rows").index(j);
            table.rows.push_back(parse_row(rows[j], row_place, phases));
            check_same_declarations(table.rows.back(), rows[j], row_place, declared);
        }
        tables.push_back(std::move(table));
    }
    return tables;
}

}  // namespace stand::scenario
