#include "scenario/threshold_parser.hpp"

#include "scenario/step_metrics.hpp"
#include "text/number_format.hpp"

#include <cmath>
#include <set>

namespace stand::scenario {
namespace {

namespace json = boost::json;

double finite_number(const json::value& v, const JsonPlace& place) {
    if (!v.is_number() || !std::isfinite(v.to_number<double>())) place.fail("a finite number", &v);
    return v.to_number<double>();
}

// "D.sub_p95_ms < 500 (median)": the limit written exactly, so that two
// thresholds of different limits (1000000 and 1000001) get different names.
std::string default_name(const std::string& metric, const std::string& bound, double limit, const std::string& on) {
    return metric + (bound == "below" ? " < " : " > ") + text::format_exact(limit) + " (" + on + ")";
}

json::array read_plugins(const ObjectReader& r) {
    json::array out;
    const json::value* v = r.find("plugins");
    if (v == nullptr) return out;
    const json::array& list = expect_array(*v, r.at("plugins"), true);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        std::string label = expect_string(list[i], r.at("plugins").index(i), true);
        if (!seen.insert(label).second) r.at("plugins").index(i).fail("a label not given before", &list[i]);
        out.emplace_back(label);
    }
    return out;
}

json::object parse_threshold(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    const ObjectReader r(v, place, "a threshold", {"name", "metric", "below", "above", "on", "abort_on_fail", "plugins"});
    json::object t;
    const std::string metric =
        expect_produced_metric(r.require("metric", "a metric name such as \"D.sub_p95_ms\""), r.at("metric"), phases);
    const json::value* below = r.find("below");
    const json::value* above = r.find("above");
    if ((below == nullptr) == (above == nullptr))
        place.fail_message("a threshold gives one of \"below\" (the value must stay under it) "
                                          "or \"above\" (the value must stay over it)");
    const std::string bound = below ? "below" : "above";
    const double limit = finite_number(below ? *below : *above, r.at(bound));
    const std::string on = r.string("on").value_or("median");
    if (on != "median" && on != "every_rep" && on != "ci")
        r.at("on").fail("\"median\" (the median of the plugin's repetitions), \"every_rep\" (each repetition) or "
                        "\"ci\" (the far end of the median's bootstrap 95 % interval)",
                        r.find("on"));
    const bool abort = r.boolean("abort_on_fail").value_or(false);
    if (abort && on == "ci")
        r.at("abort_on_fail").fail("false with \"on\": \"ci\" (an interval is known only once every repetition ran)",
                                   r.find("abort_on_fail"));
    t["name"] = r.string("name").value_or(default_name(metric, bound, limit, on));
    t["metric"] = metric;
    t["bound"] = bound;
    t["limit"] = limit;
    t["on"] = on;
    t["abort_on_fail"] = abort;
    t["plugins"] = read_plugins(r);
    return t;
}

}  // namespace

json::array parse_thresholds(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    json::array out;
    const json::array& list = expect_array(v, place, false);
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        auto t = parse_threshold(list[i], place.index(i), phases);
        const std::string name(t.at("name").as_string());
        if (!names.insert(name).second)
            place.index(i).fail_message("a second threshold named \"" + name +
                                        "\": give each a different \"name\" (it is the JUnit test case's name)");
        out.push_back(std::move(t));
    }
    return out;
}

}  // namespace stand::scenario
