#include "report/compare_gates.hpp"

#include "report/markdown_text.hpp"
#include "stats/descriptive.hpp"
#include "text/finite_json.hpp"
#include "text/junit_xml.hpp"
#include "text/number_format.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

namespace stand::report {
namespace {

namespace json = boost::json;
// "+5 %" or "+20"
std::string tolerance_text(const Gate& g) {
    const std::string sign = g.higher ? "+" : "-";
    return g.relative ? sign + text::format_4g(g.tolerance * 100) + " %" : sign + text::format_4g(g.tolerance);
}

std::string change_text(const Gate& g, double v) {
    return g.relative ? text::format_4g(v) + "x" : (v >= 0 ? "+" : "") + text::format_4g(v);
}

// Where the interval lies against the tolerance's limit: wholly beyond it
// (the gate fails), wholly within, or across it (not proven either way).
void judge(GateOutcome& o, const Gate& g) {
    const double limit = g.relative ? (g.higher ? 1 + g.tolerance : 1 - g.tolerance)
                                    : (g.higher ? g.tolerance : -g.tolerance);
    const double near = g.higher ? o.interval->low : o.interval->high;
    const double far = g.higher ? o.interval->high : o.interval->low;
    const bool beyond_near = g.higher ? near > limit : near < limit;
    const bool beyond_far = g.higher ? far > limit : far < limit;
    o.status = beyond_near ? "failed" : "passed";
    const std::string what = (g.relative ? "NEW/BASE " : "NEW - BASE ") + change_text(g, *o.estimate) +
                             ", 95 % interval " + change_text(g, o.interval->low) + " to " +
                             change_text(g, o.interval->high);
    o.message = what + (beyond_near   ? ": wholly beyond " + tolerance_text(g)
                        : beyond_far ? ": reaches past " + tolerance_text(g) + " but starts within it (not proven)"
                                     : ": within " + tolerance_text(g));
}

GateOutcome evaluate(const Gate& g, const std::string& plugin, const std::string& metric, const std::vector<double>& a,
                     const std::vector<double>& b) {
    GateOutcome o{g.text, plugin, metric, "undecided", a.size(), b.size(), {}, {}, {}};
    if (a.size() < stats::kMedianIntervalMinN || b.size() < stats::kMedianIntervalMinN) {
        o.message = "cannot decide: " + std::to_string(a.size()) + " repetitions in BASE, " + std::to_string(b.size()) +
                    " in NEW; a 95 % interval of a median needs " + std::to_string(stats::kMedianIntervalMinN) +
                    " on each side (the range of 3 values holds the median only 75 % of the time)";
        return o;
    }
    if (g.relative) {
        if (stats::median(a) == 0) {
            o.message = "cannot decide: the median in BASE is 0, so there is no ratio; give an absolute tolerance";
            return o;
        }
        const auto r = stats::ratio_of_medians(a, b);
        o.estimate = r.ratio;
        o.interval = r.ci;
    } else {
        const auto d = stats::difference_of_medians(a, b);
        o.estimate = d.difference;
        o.interval = d.ci;
    }
    if (!o.interval) {
        o.message = "cannot decide: no bootstrap resample had a base median other than 0";
        return o;
    }
    if (!std::isfinite(*o.estimate) || !std::isfinite(o.interval->low) || !std::isfinite(o.interval->high)) {
        o.message = std::string("cannot decide: ") + (g.relative ? "NEW/BASE" : "NEW - BASE") +
                    " is beyond a double (the medians: BASE " + text::format_4g(stats::median(a)) + ", NEW " +
                    text::format_4g(stats::median(b)) + "), so it cannot be held against " + tolerance_text(g);
        return o;
    }
    judge(o, g);
    return o;
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

std::string_view without_blanks(std::string_view s) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

std::size_t digits_at(std::string_view s, std::size_t from) {
    std::size_t n = 0;
    while (from + n < s.size() && s[from + n] >= '0' && s[from + n] <= '9') ++n;
    return n;
}

// A gate's parts as written: METRIC, '<' or '>', the sign, the number, '%'.
struct GateText {
    std::string_view metric, op, sign, number, percent;
};

// "METRIC > +N%" read by hand in one pass (std::regex recursed once per
// character and overflowed the stack on a 30,000-character gate): blanks
// around each part, METRIC without blanks, the operator the last '<' or '>'
// (what follows it holds none). nullopt when `text` is not of that form.
std::optional<GateText> split_gate(std::string_view text) {
    const auto op = text.find_last_of("<>");
    if (op == std::string_view::npos) return std::nullopt;
    GateText g{without_blanks(text.substr(0, op)), text.substr(op, 1), {}, {}, {}};
    if (g.metric.empty() || std::any_of(g.metric.begin(), g.metric.end(), blank)) return std::nullopt;
    std::string_view rest = without_blanks(text.substr(op + 1));
    if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) g.sign = rest.substr(0, 1);
    std::size_t end = g.sign.size() + digits_at(rest, g.sign.size());
    if (end == g.sign.size()) return std::nullopt;
    if (end < rest.size() && rest[end] == '.') {
        const std::size_t fraction = digits_at(rest, end + 1);
        if (fraction == 0) return std::nullopt;
        end += 1 + fraction;
    }
    g.number = rest.substr(g.sign.size(), end - g.sign.size());
    rest = without_blanks(rest.substr(end));
    if (rest == "%") g.percent = rest;
    else if (!rest.empty()) return std::nullopt;
    return g;
}

}  // namespace

Gate parse_gate(const std::string& text) {
    const auto parts = split_gate(text);
    if (!parts)
        throw std::invalid_argument("--fail-if '" + text +
                                    "': expected METRIC > +N% (fails when NEW is over BASE by more than N %), "
                                    "METRIC < -N%, or an absolute change in the metric's unit (METRIC > +20)");
    double change = 0;
    const char* end = parts->number.data() + parts->number.size();
    if (std::from_chars(parts->number.data(), end, change).ec != std::errc())
        throw std::invalid_argument("--fail-if '" + text + "': the change " + std::string(parts->number) +
                                    " is out of a double's range (about 1e-308 to 1.8e308)");
    Gate g{text, std::string(parts->metric), parts->op == ">", !parts->percent.empty(), change};
    if (g.relative) g.tolerance /= 100;
    if ((g.higher && parts->sign == "-") || (!g.higher && parts->sign == "+"))
        throw std::invalid_argument("--fail-if '" + text + "': '" + std::string(parts->op) + "' with a change of sign '" +
                                    std::string(parts->sign) + "'; a rise is '> +N', a fall '< -N'");
    if (g.relative && !g.higher && g.tolerance >= 1)
        throw std::invalid_argument("--fail-if '" + text + "': a fall of 100 % or more cannot be measured");
    return g;
}

std::vector<GateOutcome> evaluate_gates(const std::vector<Gate>& gates, const std::vector<PerRepRow>& base,
                                        const std::vector<PerRepRow>& fresh) {
    const auto a = samples_by_plugin_metric(base), b = samples_by_plugin_metric(fresh);
    std::vector<GateOutcome> out;
    for (const auto& g : gates) {
        bool matched = false;
        for (const auto& [key, av] : a) {
            const auto it = b.find(key);
            if (it == b.end() || fnmatch(g.pattern.c_str(), key.second.c_str(), 0) != 0) continue;
            matched = true;
            out.push_back(evaluate(g, key.first, key.second, av, it->second));
        }
        if (!matched)
            throw std::invalid_argument("--fail-if '" + g.text + "': no metric measured by both runs matches " +
                                        g.pattern);
    }
    return out;
}

bool gates_failing(const std::vector<GateOutcome>& outcomes) {
    for (const auto& o : outcomes)
        if (o.status != "passed") return true;
    return false;
}

std::string gates_markdown(const std::vector<GateOutcome>& outcomes) {
    std::size_t passed = 0, failed = 0, undecided = 0;
    std::string rows;
    for (const auto& o : outcomes) {
        passed += o.status == "passed";
        failed += o.status == "failed";
        undecided += o.status == "undecided";
        rows += "| " + cell_text(o.gate) + " | " + cell_text(o.plugin) + " | " + cell_text(o.metric) + " | " +
                (o.status == "passed" ? o.status : "**" + o.status + "**") + " | " + cell_text(o.message) + " |\n";
    }
    return "\nGates: " + std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
           std::to_string(undecided) + " undecided (a failed or undecided gate: exit 99)\n\n"
           "| Gate | Plugin | Metric | Status | Why |\n|---|---|---|---|---|\n" + rows;
}

json::array gates_json(const std::vector<GateOutcome>& outcomes) {
    json::array out;
    for (const auto& o : outcomes) {
        json::object g{{"gate", o.gate},     {"plugin", o.plugin}, {"metric", o.metric}, {"status", o.status},
                       {"n_base", o.n_base}, {"n_new", o.n_new},   {"message", o.message}};
        g["estimate"] = text::finite_or_null(o.estimate);
        g["ci95_low"] = text::finite_or_null(o.interval ? std::optional(o.interval->low) : std::nullopt);
        g["ci95_high"] = text::finite_or_null(o.interval ? std::optional(o.interval->high) : std::nullopt);
        out.push_back(std::move(g));
    }
    return out;
}

std::string gates_junit(const std::vector<GateOutcome>& outcomes, const std::string& suite) {
    using O = text::JunitCase::Outcome;
    text::JunitSuite s{suite, {}, {}};
    for (const auto& o : outcomes)
        s.cases.push_back({o.plugin, o.gate + " [" + o.metric + "]", 0,
                           o.status == "passed" ? O::passed : o.status == "failed" ? O::failed : O::error,
                           o.status + ": " + o.message, o.metric + " of " + o.plugin});
    return text::junit_xml(s);
}

}  // namespace stand::report
