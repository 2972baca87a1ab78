#include "report/compare_runs.hpp"

#include "report/markdown_text.hpp"
#include "text/finite_json.hpp"
#include "text/number_format.hpp"

#include "stats/mann_whitney.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace stand::report {
namespace {

namespace json = boost::json;
using text::finite_or_null;

json::object summary_json(const stats::Summary& s, bool& non_finite) {
    return {{"n", s.n},
            {"median", finite_or_null(s.median, non_finite)},
            {"min", finite_or_null(s.min, non_finite)},
            {"max", finite_or_null(s.max, non_finite)},
            {"ci95_low", finite_or_null(s.ci_low, non_finite)},
            {"ci95_high", finite_or_null(s.ci_high, non_finite)}};
}

}  // namespace

RunComparison compare_rows(const std::vector<PerRepRow>& a_rows, const std::vector<PerRepRow>& b_rows) {
    const auto a = samples_by_plugin_metric(a_rows), b = samples_by_plugin_metric(b_rows);
    RunComparison out;
    for (const auto& [key, av] : a) {
        auto it = b.find(key);
        if (it == b.end()) {
            out.only_in_a.push_back(key.first + " " + key.second);
            continue;
        }
        const auto& bv = it->second;
        MetricComparison m;
        m.plugin = key.first;
        m.metric = key.second;
        m.a = stats::summarize(av);
        m.b = stats::summarize(bv);
        if (m.a.median != 0) {
            auto r = stats::ratio_of_medians(av, bv);
            m.ratio = r.ratio;
            if (r.ci) m.ratio_ci = r.ci;
        }
        auto u = stats::mann_whitney_u(av, bv);
        m.p_value = u.p_value;
        m.method = u.method == stats::MwuMethod::exact ? "exact" : "asymptotic";
        m.few_reps = av.size() < kCompareMinReps || bv.size() < kCompareMinReps;
        out.rows.push_back(std::move(m));
    }
    for (const auto& [key, bv] : b)
        if (!a.count(key)) out.only_in_b.push_back(key.first + " " + key.second);
    return out;
}

std::string comparison_markdown(const RunComparison& c, const std::string& name_a, const std::string& name_b) {
    std::string md = "A = " + name_a + "\nB = " + name_b +
                     "\n\nCells: median (min-max) [n]. Ratio B/A of the medians with its bootstrap 95 % interval; "
                     "p from a two-sided Mann-Whitney U test.\n\n"
                     "| Plugin | Metric | A | B | B/A (95 % CI) | p |\n|---|---|---|---|---|---|\n";
    bool few = false;
    for (const auto& m : c.rows) {
        auto cell = [](const stats::Summary& s) {
            return text::format_4g(s.median) + " (" + text::format_4g(s.min) + "-" + text::format_4g(s.max) + ") [" + std::to_string(s.n) + "]";
        };
        std::string ratio = "n/a (median of A is 0)";
        if (m.ratio) {
            ratio = text::format_4g(*m.ratio);
            ratio += m.ratio_ci ? " (" + text::format_4g(m.ratio_ci->low) + "-" + text::format_4g(m.ratio_ci->high) + ")" : " (no interval, n < 2)";
        }
        std::string p = text::format_4g(m.p_value) + (m.few_reps ? " *" : "");
        few = few || m.few_reps;
        md += "| " + cell_text(m.plugin) + " | " + cell_text(m.metric) + " | " + cell(m.a) + " | " + cell(m.b) + " | " + ratio +
              " | " + p + " |\n";
    }
    if (c.rows.empty()) md += "| (no plugin and metric measured by both runs) | | | | | |\n";
    if (few)
        md += "\n\\* fewer than " + std::to_string(kCompareMinReps) +
              " repetitions on a side: the test cannot reach small p values (3 vs 3: p >= 0.1), so a large p here "
              "is no evidence of equality. Run more repetitions.\n";
    auto list = [&](const std::vector<std::string>& v, const std::string& who) {
        if (v.empty()) return;
        md += "\nOnly in " + who + ":";
        for (const auto& s : v) md += " " + s + ";";
        md += "\n";
    };
    list(c.only_in_a, "A");
    list(c.only_in_b, "B");
    return md;
}

json::object comparison_json(const RunComparison& c, const std::string& name_a, const std::string& name_b) {
    json::array rows;
    for (const auto& m : c.rows) {
        bool non_finite = false;
        json::object r{{"plugin", m.plugin},
                       {"metric", m.metric},
                       {"a", summary_json(m.a, non_finite)},
                       {"b", summary_json(m.b, non_finite)},
                       {"p_value", finite_or_null(m.p_value, non_finite)},
                       {"test", "mann-whitney-u " + m.method},
                       {"few_reps", m.few_reps}};
        r["ratio"] = finite_or_null(m.ratio, non_finite);
        r["ratio_ci95_low"] = m.ratio_ci ? finite_or_null(m.ratio_ci->low, non_finite) : json::value(nullptr);
        r["ratio_ci95_high"] = m.ratio_ci ? finite_or_null(m.ratio_ci->high, non_finite) : json::value(nullptr);
        if (non_finite)
            r["null_because"] = "a value here is beyond a double (a ratio of medians such as 1e300 / 1e-300)";
        rows.push_back(std::move(r));
    }
    json::array only_a(c.only_in_a.begin(), c.only_in_a.end()), only_b(c.only_in_b.begin(), c.only_in_b.end());
    return {{"schema_version", 1}, {"a", name_a},          {"b", name_b},
            {"rows", rows},        {"only_in_a", only_a}, {"only_in_b", only_b}};
}

}  // namespace stand::report
