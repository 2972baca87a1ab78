#include "detect/result_checks.hpp"

#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stand::detect {
namespace {

namespace json = boost::json;
using Metrics = std::map<std::string, std::vector<double>>;

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, std::fabs(v) >= 1 ? "%.1f" : "%.3g", v);
    return buf;
}

std::string pct(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, v < 0.01 ? "%.4f" : "%.3f", v);
    return buf;
}

std::string str(const json::object& c, const char* key) {
    auto* v = c.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

double number_or(const json::object& c, const char* key, double fallback) {
    auto* v = c.if_contains(key);
    return v && v->is_number() ? v->to_number<double>() : fallback;
}

const std::vector<double>* find(const Metrics& m, const std::string& metric) {
    auto it = m.find(metric);
    return it == m.end() || it->second.empty() ? nullptr : &it->second;
}

// "3006.4 IOPS (12.3 MB/s is 11.7 MiB/s)", "41.9 MB/s is 40.0 MiB/s", or the bare number.
std::string plateau_text(const std::string& metric, double value, const Metrics& m) {
    const auto bytes = plateau_in_bytes(metric, value, m);
    if (metric.ends_with(".iops")) return num(value) + " IOPS" + (bytes.empty() ? "" : " (" + bytes + ")");
    return bytes.empty() ? num(value) : bytes;
}

CheckOutcome outcome(const json::object& c, const std::string& plugin) {
    CheckOutcome o;
    o.check = str(c, "check");
    o.plugin = plugin;
    return o;
}

void cache(const json::object& c, const std::string& plugin, const Metrics& m, std::vector<CheckOutcome>& out) {
    const auto metric = str(c, "metric"), control = str(c, "control");
    const auto* small = find(m, metric);
    const auto* large = find(m, control);
    if (!small || !large) return;
    auto o = outcome(c, plugin);
    const double a = stats::median(*small), b = stats::median(*large), above = number_or(c, "above", 1.5);
    const double ratio = b > 0 ? a / b : INFINITY;
    if (ratio > above) {
        o.status = "fired";
        o.id = "cache-suspected";
        o.message = "cache suspected: " + metric + " " + num(a) + " is " + num(ratio) + "x the control " + control + " " +
                    num(b) + " on the larger file (threshold " + num(above) +
                    "x): the small file was most likely read from a cache (a hypervisor's is beyond O_DIRECT), not from the disk. "
                    "The control covers reads only: writes were not controlled.";
    } else {
        o.status = "clear";
        o.message = metric + " is " + num(ratio) + "x the control " + control +
                    ": no cache smaller than the control file showed; a larger cache is not excluded, and writes were not controlled.";
    }
    out.push_back(std::move(o));
}

void plateau_spread(const json::object& c, const std::string& plugin, const Metrics& m, std::vector<CheckOutcome>& out) {
    const auto metric = str(c, "metric");
    const auto* v = find(m, metric);
    if (!v) return;
    auto o = outcome(c, plugin);
    const double below = number_or(c, "below_pct", 0.05);
    if (v->size() < 2) {
        o.status = "not evaluated";
        o.message = metric + ": one pass only; the pass-to-pass spread needs at least two";
        out.push_back(std::move(o));
        return;
    }
    const double med = stats::median(*v);
    const double lo = *std::min_element(v->begin(), v->end()), hi = *std::max_element(v->begin(), v->end());
    const double spread = med != 0 ? (hi - lo) / std::fabs(med) * 100.0 : 0;
    if (spread < below) {
        o.status = "fired";
        o.id = "limiter-suspected";
        o.message = "limiter suspected: " + metric + " varies only " + pct(spread) + " % across " + std::to_string(v->size()) +
                    " passes (" + num(lo) + " to " + num(hi) + "; threshold " + pct(below) + " %): a plateau at " + plateau_text(metric, med, m) + ", a QoS limit rather than the medium";
    } else {
        o.status = "clear";
        o.message = metric + " varies " + pct(spread) + " % across " + std::to_string(v->size()) + " passes";
    }
    out.push_back(std::move(o));
}

void plateau_equal(const json::object& c, const std::string& plugin, const Metrics& m, std::vector<CheckOutcome>& out) {
    const auto& names = c.at("metrics").as_array();
    const std::string a_name(names[0].as_string()), b_name(names[1].as_string());
    const auto* a = find(m, a_name);
    const auto* b = find(m, b_name);
    if (!a || !b) return;
    auto o = outcome(c, plugin);
    const double x = stats::median(*a), y = stats::median(*b), within = number_or(c, "within_pct", 0.01);
    const double diff = std::max(std::fabs(x), std::fabs(y)) > 0 ? std::fabs(x - y) / std::max(std::fabs(x), std::fabs(y)) * 100 : 0;
    const std::string what = str(c, "what");
    if (diff < within) {
        o.status = "fired";
        o.id = "limiter-suspected";
        o.message = "limiter suspected: " + a_name + " " + num(x) + " and " + b_name + " " + num(y) + " are equal within " +
                    pct(diff) + " % (threshold " + pct(within) + " %" + (what.empty() ? "" : "; " + what) +
                    "): one limit caps both, not the medium; the plateau is " + plateau_text(a_name, (x + y) / 2, m);
    } else {
        o.status = "clear";
        o.message = a_name + " and " + b_name + " differ by " + pct(diff) + " %";
    }
    out.push_back(std::move(o));
}

void write_back(const json::object& c, const std::string& plugin, const Metrics& m, std::vector<CheckOutcome>& out) {
    const auto w_name = str(c, "write"), r_name = str(c, "read");
    const auto* w = find(m, w_name);
    const auto* r = find(m, r_name);
    if (!w || !r) return;
    auto o = outcome(c, plugin);
    const double wv = stats::median(*w), rv = stats::median(*r);
    if (wv > rv) {
        o.status = "fired";
        o.id = "write-back-suspected";
        o.message = "write-back suspected: " + w_name + " " + num(wv) + " is faster than " + r_name + " " + num(rv) +
                    ": a write counts as done when a cache acknowledges it, so the write columns show acknowledgement speed, "
                    "not what the medium sustains";
    } else {
        o.status = "clear";
        o.message = w_name + " " + num(wv) + " is not faster than " + r_name + " " + num(rv);
    }
    out.push_back(std::move(o));
}

void anomalies(const json::object& c, const std::string& plugin, const Metrics& m, std::vector<CheckOutcome>& out) {
    const double above = number_or(c, "above", 1.3);
    std::vector<std::string> metrics;
    if (auto* list = c.if_contains("metrics"); list && list->is_array())
        for (const auto& x : list->get_array()) metrics.emplace_back(x.as_string());
    if (metrics.empty())
        for (const auto& [name, v] : m) metrics.push_back(name);
    for (const auto& metric : metrics) {
        const auto* v = find(m, metric);
        if (!v || v->size() < 2) continue;
        const double lo = *std::min_element(v->begin(), v->end()), hi = *std::max_element(v->begin(), v->end());
        if (lo <= 0 || hi / lo <= above) continue;
        auto o = outcome(c, plugin);
        o.status = "fired";
        o.id = "passes-disagree";
        o.metric = metric;
        o.values = *v;
        std::string list;
        for (double x : *v) list += (list.empty() ? "" : ", ") + num(x);
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.1f", hi / lo);
        o.message = "spread across passes x" + std::string(ratio) + " (" + list + ")";
        out.push_back(std::move(o));
    }
}

}  // namespace

json::object CheckOutcome::to_json() const {
    json::object o{{"check", check}, {"plugin", plugin}, {"status", status}, {"message", message}};
    if (!id.empty()) o["id"] = id;
    if (!metric.empty()) {
        o["metric"] = metric;
        json::array v;
        for (double x : values) v.emplace_back(x);
        o["values"] = std::move(v);
    }
    return o;
}

std::string plateau_in_bytes(const std::string& metric, double value, const Metrics& m) {
    double bytes_s = 0;
    if (metric.ends_with(".mb_s")) bytes_s = value * 1e6;
    else if (metric.ends_with(".mib_s")) bytes_s = value * 1048576.0;
    else if (metric.ends_with(".iops")) {
        const auto* bs = find(m, metric.substr(0, metric.size() - 5) + ".block_size");
        if (!bs) return "";
        bytes_s = value * stats::median(*bs);
    } else return "";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1f MB/s is %.1f MiB/s", bytes_s / 1e6, bytes_s / 1048576.0);
    return buf;
}

std::vector<CheckOutcome> evaluate_checks(const json::array& checks, const RunValues& values) {
    std::vector<CheckOutcome> out;
    for (const auto& cv : checks) {
        const auto& c = cv.as_object();
        const std::string kind = str(c, "check");
        const auto before = out.size();
        for (const auto& [plugin, metrics] : values) {
            if (kind == "cache") cache(c, plugin, metrics, out);
            else if (kind == "plateau_spread") plateau_spread(c, plugin, metrics, out);
            else if (kind == "plateau_equal") plateau_equal(c, plugin, metrics, out);
            else if (kind == "write_back") write_back(c, plugin, metrics, out);
            else if (kind == "anomalies") anomalies(c, plugin, metrics, out);
        }
        if (out.size() == before && kind != "anomalies") {
            CheckOutcome o;
            o.check = kind;
            o.status = "not evaluated";
            o.message = "no plugin has values for " + json::serialize(c.contains("metric") ? c.at("metric") : c.contains("metrics") ? c.at("metrics") : c.at("write")) +
                        " (a failed or skipped step)";
            out.push_back(std::move(o));
        }
    }
    return out;
}

}  // namespace stand::detect
