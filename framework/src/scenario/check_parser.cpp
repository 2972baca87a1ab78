#include "scenario/check_parser.hpp"

#include "scenario/step_metrics.hpp"

#include <map>

namespace stand::scenario {
namespace {

namespace json = boost::json;

constexpr std::string_view kKinds = "cache, plateau_spread, plateau_equal, write_back, anomalies";

std::string read_metric(const ObjectReader& r, std::string_view key, const std::vector<Phase>& phases) {
    return expect_produced_metric(r.require(key, "a metric name such as \"seq_read.mb_s\""), r.at(key), phases);
}

json::array read_metrics(const ObjectReader& r, std::string_view key, const std::vector<Phase>& phases,
                         std::size_t exactly) {
    const json::value& v = r.require(key, "an array of metric names");
    const json::array& list = expect_array(v, r.at(key), true);
    if (exactly != 0 && list.size() != exactly)
        r.at(key).fail("an array of " + std::to_string(exactly) + " metric names", &v);
    json::array out;
    for (std::size_t i = 0; i < list.size(); ++i) out.emplace_back(expect_produced_metric(list[i], r.at(key).index(i), phases));
    return out;
}

double read_number(const ObjectReader& r, std::string_view key, double fallback, double max) {
    return r.positive(key, max).value_or(fallback);
}

json::object parse_check(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    const std::string expected = "one of " + std::string(kKinds);
    const json::value* kind = v.is_object() ? v.get_object().if_contains("check") : nullptr;
    if (kind == nullptr || !kind->is_string()) (v.is_object() ? place.key("check") : place).fail(expected, kind ? kind : &v);
    const std::string k(kind->get_string());
    static const std::map<std::string, std::vector<std::string_view>> keys = {
        {"cache", {"check", "metric", "control", "above"}},
        {"plateau_spread", {"check", "metric", "below_pct"}},
        {"plateau_equal", {"check", "metrics", "within_pct", "what"}},
        {"write_back", {"check", "write", "read"}},
        {"anomalies", {"check", "metrics", "above"}},
    };
    auto it = keys.find(k);
    if (it == keys.end()) place.key("check").fail(expected, kind);
    const ObjectReader r(v, place, "a " + k + " check", it->second);
    json::object c{{"check", k}};
    if (k == "cache") {
        c["metric"] = read_metric(r, "metric", phases);
        c["control"] = read_metric(r, "control", phases);
        c["above"] = read_number(r, "above", 1.5, 1e6);
    } else if (k == "plateau_spread") {
        c["metric"] = read_metric(r, "metric", phases);
        c["below_pct"] = read_number(r, "below_pct", 0.05, 100);
    } else if (k == "plateau_equal") {
        c["metrics"] = read_metrics(r, "metrics", phases, 2);
        c["within_pct"] = read_number(r, "within_pct", 0.01, 100);
        c["what"] = r.string("what").value_or("");
    } else if (k == "write_back") {
        c["write"] = read_metric(r, "write", phases);
        c["read"] = read_metric(r, "read", phases);
    } else {
        c["metrics"] = r.find("metrics") ? read_metrics(r, "metrics", phases, 0) : json::array{};
        c["above"] = read_number(r, "above", 1.3, 1e6);
        if (c["above"].as_double() <= 1) r.at("above").fail("a ratio above 1", r.find("above"));
    }
    return c;
}

}  // namespace

json::array parse_checks(const json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    json::array out;
    const json::array& list = expect_array(v, place, false);
    for (std::size_t i = 0; i < list.size(); ++i) out.push_back(parse_check(list[i], place.index(i), phases));
    return out;
}

}  // namespace stand::scenario
