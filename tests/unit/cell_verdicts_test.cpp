// The detectors' verdict next to each number (report/cell_verdicts.hpp).
#include "report/cell_verdicts.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <vector>

namespace rp = stand::report;
namespace json = boost::json;

namespace {

json::object rep(const char* plugin, json::array findings) {
    return {{"plugin", plugin}, {"rep", 1}, {"findings", std::move(findings)}};
}

json::object finding(const char* id, const char* scope) { return {{"id", id}, {"scope", scope}, {"message", "m"}}; }

}  // namespace

TEST_CASE("cell verdicts: a step's findings mark that step's cells of that plugin only; whole-rep ones go under the table") {
    const std::vector<json::object> reps{
        rep("a", {finding("tunnel-not-here", "a rep 1, step B1"), finding("machine-busy", "a rep 1"),
                  finding("open-model-behind", "a rep 1, step D_storm"), finding("tunnel-not-here", "a rep 1, step B1")}),
        rep("b", {finding("tunnel-disrupted", "b rep 1, step E_tunnel")})};
    const auto findings = rp::rep_findings(reps);
    const auto spec = rp::parse_table_spec_text(
        R"({"rows": [{"label": "B1", "metric": "B1.gbit_s", "format": "%.1f", "optional": true},
                     {"label": "D", "metric": "D_storm.rps", "format": "%.0f"},
                     {"label": "E", "metric": "E_tunnel.streams_dropped", "format": "%.0f"}]})",
        "test spec");
    const std::vector<rp::PerRepRow> rows{{"a", 1, "D_storm.rps", 300}, {"a", 1, "E_tunnel.streams_dropped", 0},
                                          {"b", 1, "B1.gbit_s", 1.5},   {"b", 1, "D_storm.rps", 299},
                                          {"b", 1, "E_tunnel.streams_dropped", 64}};
    auto table = rp::build_table(rows, spec, "rows");
    rp::mark_cells(table, spec, findings);
    REQUIRE(table.columns.size() == 2);
    CHECK(table.columns[0].plugin == "a");
    CHECK(table.rows[0].cells[0].text == "n/a \u26a0 tunnel-not-here");  // one id, however often it fired
    CHECK(table.rows[0].cells[1].text == "1.5 (1.5-1.5)");
    CHECK(table.rows[1].cells[0].text == "300 (300-300) \u26a0 open-model-behind");
    CHECK(table.rows[1].cells[1].text == "299 (299-299)");
    CHECK(table.rows[2].cells[0].text == "0 (0-0)");
    CHECK(table.rows[2].cells[1].text == "64 (64-64) \u26a0 tunnel-disrupted");
    CHECK(rp::whole_rep_line(table, findings) ==
          "Detectors on whole repetitions (every row of that column): a: machine-busy.\n");
}
