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

TEST_CASE("cell verdicts: a step's findings flag that step's cells of that plugin only, whole-rep ones flag every cell of the plugin") {
    const std::vector<json::object> reps{
        rep("a", {finding("tunnel-not-here", "a rep 1, step B1"), finding("machine-busy", "a rep 1"),
                  finding("open-model-behind", "a rep 1, step D_storm"), finding("tunnel-not-here", "a rep 1, step B1")}),
        rep("b", {finding("tunnel-disrupted", "b rep 1, step E_tunnel")})};
    auto failed = rep("b", {finding("machine-busy", "b rep 2")});
    failed["rep"] = 2;
    failed["status"] = "failed";  // fed no cell
    auto all = reps;
    all.push_back(failed);
    const auto findings = rp::rep_findings(all);
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
    using V = std::vector<std::string>;
    CHECK(table.rows[0].cells[0].flags == V{"machine-busy in a rep 1", "tunnel-not-here in a rep 1, step B1"});  // once
    CHECK(table.rows[0].cells[1].flags.empty());
    CHECK(table.rows[1].cells[0].flags == V{"machine-busy in a rep 1", "open-model-behind in a rep 1, step D_storm"});
    CHECK(table.rows[1].cells[1].flags.empty());
    CHECK(table.rows[2].cells[0].flags == V{"machine-busy in a rep 1"});
    CHECK(table.rows[2].cells[1].flags == V{"tunnel-disrupted in b rep 1, step E_tunnel"});
    CHECK(table.rows[1].cells[0].text == "300 (300-300)");  // the number itself untouched

    const std::string md = rp::render_markdown(table, spec);
    CHECK(md.find("| D | 300 (300-300) \u26a01,3 | 299 (299-299) |") != std::string::npos);
    CHECK(md.find("\u26a01 machine-busy in a rep 1  \n\u26a02 tunnel-not-here in a rep 1, step B1") != std::string::npos);
    CHECK(md.find("\u26a04 tunnel-disrupted in b rep 1, step E_tunnel\n") != std::string::npos);
}
