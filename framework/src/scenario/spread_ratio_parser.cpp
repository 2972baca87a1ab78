#include "scenario/spread_ratio_parser.hpp"

#include "scenario/step_metrics.hpp"
#include "scenario/value_syntax.hpp"

namespace stand::scenario {
namespace {

namespace json = boost::json;

json::object parse_entry(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    const ObjectReader r(v, place, "a spread ratio", {"title", "across", "within", "format"});
    json::object out;
    out["title"] = expect_string(r.require("title", "a non-empty string"), r.at("title"), true);
    out["across"] = expect_produced_metric(r.require("across", "a metric name such as \"pool_off.box_cpu_us_per_req\""),
                                    r.at("across"), phases);
    const json::value& within = r.require("within", "[numerator, denominator]: two metric names");
    const json::array& pair = expect_array(within, r.at("within"), true);
    if (pair.size() != 2) r.at("within").fail("[numerator, denominator]: two metric names", &within);
    const std::string numerator = expect_produced_metric(pair[0], r.at("within").index(0), phases);
    const std::string denominator = expect_produced_metric(pair[1], r.at("within").index(1), phases);
    if (numerator == denominator)
        r.at("within").fail("two different metrics (a metric over itself is always 1)", &within);
    out["within"] = json::array{json::value(numerator), json::value(denominator)};
    out["format"] = "%.1f";
    if (auto format = r.string("format")) {
        if (!is_double_format(*format))
            r.at("format").fail("one printf conversion of a number such as \"%.1f\"", r.find("format"));
        out["format"] = *format;
    }
    return out;
}

}  // namespace

json::array parse_spread_ratios(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    json::array out;
    const json::array& list = expect_array(v, place, false);
    for (std::size_t i = 0; i < list.size(); ++i) out.push_back(parse_entry(list[i], place.index(i), phases));
    return out;
}

}  // namespace stand::scenario
