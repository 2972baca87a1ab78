#include "detect/thresholds.hpp"

#include "rundir/run_files.hpp"
#include "stats/bootstrap.hpp"
#include "stats/descriptive.hpp"
#include "text/number_format.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace stand::detect {
namespace {

namespace json = boost::json;

bool within(const std::string& bound, double value, double limit) {
    return bound == "below" ? value < limit : value > limit;
}

// "rep 1: 612, rep 3: 650"
std::string listed(const std::vector<RepValue>& values) {
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ", ") + std::string("rep ") + std::to_string(v.rep) + ": " + text::format_4g(v.value);
    return out;
}

std::vector<double> plain(const std::vector<RepValue>& values) {
    std::vector<double> out;
    for (const auto& v : values) out.push_back(v.value);
    return out;
}

void judge_median(ThresholdOutcome& o, const std::vector<RepValue>& values) {
    o.value = stats::median(plain(values));
    o.status = within(o.bound, *o.value, o.limit) ? "passed" : "crossed";
    o.message = "median " + text::format_4g(*o.value) + " over " + std::to_string(o.n) + " repetition" +
                (o.n == 1 ? "" : "s") + " (" + listed(values) + ")";
}

void judge_every_rep(ThresholdOutcome& o, const std::vector<RepValue>& values) {
    std::vector<RepValue> crossed;
    for (const auto& v : values)
        if (!within(o.bound, v.value, o.limit)) {
            crossed.push_back(v);
            o.crossed_reps.push_back(v.rep);
        }
    const auto worst = std::max_element(values.begin(), values.end(), [&](const RepValue& a, const RepValue& b) {
        return o.bound == "below" ? a.value < b.value : a.value > b.value;
    });
    o.value = worst->value;
    o.status = crossed.empty() ? "passed" : "crossed";
    o.message = crossed.empty() ? "every one of " + std::to_string(o.n) + " repetitions within, the worst " +
                                      text::format_4g(worst->value) + " (rep " + std::to_string(worst->rep) + ")"
                                : std::to_string(crossed.size()) + " of " + std::to_string(o.n) +
                                      " repetitions crossed (" + listed(crossed) + ")";
}

void judge_interval(ThresholdOutcome& o, const std::vector<RepValue>& values) {
    if (o.n < stats::kMedianIntervalMinN) {
        o.status = "not evaluated";
        o.message = std::to_string(o.n) + " finished repetition" + (o.n == 1 ? "" : "s") + "; a 95 % interval of a median needs " +
                    std::to_string(stats::kMedianIntervalMinN) +
                    " (the range of n values holds the median with 1 - 2^(1-n) only: 75 % for 3)";
        return;
    }
    const auto ci = stats::bootstrap_median_ci(plain(values));
    o.value = o.bound == "below" ? ci->high : ci->low;
    o.status = within(o.bound, *o.value, o.limit) ? "passed" : "crossed";
    o.message = "median " + text::format_4g(stats::median(plain(values))) + ", bootstrap 95 % interval " + text::format_4g(ci->low) + "-" +
                text::format_4g(ci->high) + " over " + std::to_string(o.n) + " repetitions";
}

// A threshold's "plugins" (all when empty); in a run on hosts the plugin
// is "HOST/label".
bool applies_to(const json::array& only, const std::string& plugin) {
    if (only.empty()) return true;
    for (const auto& l : only) {
        const std::string label(l.as_string());
        if (plugin == label || (plugin.size() > label.size() && plugin.ends_with("/" + label))) return true;
    }
    return false;
}

}  // namespace

json::object ThresholdOutcome::to_json() const {
    json::array reps(crossed_reps.begin(), crossed_reps.end());
    return {{"name", name},     {"metric", metric}, {"plugin", plugin},
            {"bound", bound},   {"limit", limit},   {"on", on},
            {"status", status}, {"value", value ? json::value(*value) : json::value(nullptr)},
            {"n", n},           {"crossed_reps", reps}, {"message", message}};
}

ThresholdOutcome ThresholdOutcome::from_json(const json::object& o) {
    ThresholdOutcome t;
    auto text = [&](const char* k) { return std::string(o.at(k).as_string()); };
    t.name = text("name");
    t.metric = text("metric");
    t.plugin = text("plugin");
    t.bound = text("bound");
    t.on = text("on");
    t.status = text("status");
    t.message = text("message");
    t.limit = o.at("limit").to_number<double>();
    if (!o.at("value").is_null()) t.value = o.at("value").to_number<double>();
    t.n = o.at("n").to_number<std::size_t>();
    for (const auto& r : o.at("crossed_reps").as_array()) t.crossed_reps.push_back(r.to_number<std::int64_t>());
    return t;
}

ThresholdOutcome evaluate_threshold(const json::object& threshold, const std::string& plugin,
                                    const std::vector<RepValue>& values, const std::vector<std::string>& unfinished) {
    ThresholdOutcome o;
    o.name = std::string(threshold.at("name").as_string());
    o.metric = std::string(threshold.at("metric").as_string());
    o.bound = std::string(threshold.at("bound").as_string());
    o.on = std::string(threshold.at("on").as_string());
    o.limit = threshold.at("limit").to_number<double>();
    o.plugin = plugin;
    o.n = values.size();
    if (values.empty()) {
        o.status = "not evaluated";
        o.message = "no finished repetition of " + plugin + " measured " + o.metric;
    } else if (o.on == "every_rep") {
        judge_every_rep(o, values);
    } else if (o.on == "ci") {
        judge_interval(o, values);
    } else {
        judge_median(o, values);
    }
    if (!unfinished.empty()) {
        std::string list;
        for (const auto& u : unfinished) list += (list.empty() ? "" : ", ") + u;
        o.message += "; not finished: " + list;
    }
    return o;
}

std::vector<ThresholdOutcome> evaluate_thresholds(const json::array& thresholds, const std::vector<json::object>& reps,
                                                  const std::vector<std::string>& plugins) {
    std::vector<ThresholdOutcome> out;
    for (const auto& tv : thresholds) {
        const auto& t = tv.as_object();
        const auto& only = t.at("plugins").as_array();
        const std::string metric(t.at("metric").as_string());
        for (const auto& plugin : plugins) {
            if (!applies_to(only, plugin)) continue;
            std::vector<RepValue> values;
            std::vector<std::string> unfinished;
            for (const auto& rep : reps) {
                if (rep.at(rundir::rep_key::kPlugin).as_string() != plugin) continue;
                const auto n = rep.at(rundir::rep_key::kRep).to_number<std::int64_t>();
                const std::string status(rep.at(rundir::rep_key::kStatus).as_string());
                if (status != rundir::rep_status::kOk) {
                    unfinished.push_back("rep " + std::to_string(n) + " " + status);
                    continue;
                }
                const auto* metrics = rundir::field(rep, rundir::rep_key::kMetrics);
                const auto* v = metrics ? metrics->as_object().if_contains(metric) : nullptr;
                if (v && v->is_number()) values.push_back({n, v->to_number<double>()});
            }
            std::sort(values.begin(), values.end(), [](const RepValue& a, const RepValue& b) { return a.rep < b.rep; });
            out.push_back(evaluate_threshold(t, plugin, values, unfinished));
        }
    }
    return out;
}

bool crossed_for_good(const json::object& threshold, const std::vector<RepValue>& values, std::size_t planned) {
    const std::string on(threshold.at("on").as_string()), bound(threshold.at("bound").as_string());
    const double limit = threshold.at("limit").to_number<double>();
    std::size_t crossed = 0;
    for (const auto& v : values) crossed += !within(bound, v.value, limit);
    if (on == "every_rep") return crossed > 0;
    if (on == "median") return 2 * crossed > planned;
    return false;
}

std::string threshold_line(const ThresholdOutcome& o) {
    return o.plugin + ": " + o.name + ": " + o.status + ", " + o.message;
}

}  // namespace stand::detect
