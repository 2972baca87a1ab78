#include "report/spread_ratio.hpp"
#include "rundir/run_files.hpp"

#include "report/markdown_text.hpp"
#include "text/number_format.hpp"
#include "stats/descriptive.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace stand::report {
namespace {

namespace json = boost::json;

std::string text_of(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The run's plugin labels in its order; a run.json without them (an old
// run) falls back to the order the repetitions name them.
std::vector<std::string> run_plugins(const json::object& run, const std::vector<json::object>& reps) {
    std::vector<std::string> out;
    if (const json::value* p = run.if_contains("plugins"); p != nullptr && p->is_array())
        for (const auto& entry : p->get_array())
            if (entry.is_object()) out.push_back(text_of(entry.get_object(), "label"));
    if (!out.empty()) return out;
    for (const auto& rep : reps)
        if (std::find(out.begin(), out.end(), text_of(rep, rundir::rep_key::kPlugin)) == out.end()) out.push_back(text_of(rep, rundir::rep_key::kPlugin));
    return out;
}

// Repetitions the run planned that are not on disk, or (adaptive) plugins
// still short of their stopping rule.
void note_unfinished_plan(const json::object& run, const std::vector<json::object>& reps,
                          std::vector<std::string>& incomplete) {
    const json::value* adaptive = run.if_contains("adaptive_repetitions");
    if (adaptive != nullptr && adaptive->is_object() && adaptive->get_object().contains("plugins")) {
        for (const auto& [plugin, state] : adaptive->get_object().at("plugins").as_object())
            if (state.is_object() && text_of(state.get_object(), "state") == "running")
                incomplete.push_back(std::string(plugin) + ": its adaptive repetitions had not finished (" +
                                     text_of(state.get_object(), rundir::rep_key::kReason) + ")");
        return;
    }
    const json::value* plan = run.if_contains("plan");
    if (plan == nullptr || !plan->is_array()) return;
    std::set<std::string> on_disk;
    for (const auto& rep : reps) on_disk.insert(text_of(rep, rundir::rep_key::kKey));
    for (const auto& entry : plan->get_array())
        if (entry.is_object() && !on_disk.contains(text_of(entry.get_object(), "key")))
            incomplete.push_back(text_of(entry.get_object(), "key") + ": did not run");
}

std::string ratio_text(double r) {
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.2fx", r);
    return buf;
}

std::string excess_text(double r) {
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%+.0f %%", (r - 1) * 100);
    return buf;
}

void summarize_systems(SpreadRatio& s) {
    auto by_across = std::minmax_element(s.systems.begin(), s.systems.end(),
                                         [](const auto& a, const auto& b) { return a.across < b.across; });
    s.across_min_plugin = by_across.first->plugin;
    s.across_max_plugin = by_across.second->plugin;
    s.across_spread = by_across.second->across / by_across.first->across;
    auto by_within = std::minmax_element(s.systems.begin(), s.systems.end(),
                                         [](const auto& a, const auto& b) { return a.within < b.within; });
    s.within_min = by_within.first->within;
    s.within_min_plugin = by_within.first->plugin;
    s.within_max = by_within.second->within;
    s.within_max_plugin = by_within.second->plugin;
    std::vector<double> within;
    for (const auto& sys : s.systems) within.push_back(sys.within);
    s.within_median = stats::median(within);
    if (s.across_spread <= 1)
        s.no_quotient = "every system has the same median " + s.across_metric + ": there is no spread between them";
    else if (s.within_median <= 1)
        s.no_quotient = "the median " + s.numerator_metric + " / " + s.denominator_metric + " is " +
                        ratio_text(s.within_median) + ", not above 1";
    else
        s.quotient = (s.within_median - 1) / (s.across_spread - 1);
}

std::string section_markdown(const SpreadRatio& s) {
    std::string md = "## " + s.title + "\n\n";
    if (!s.incomplete.empty()) {
        md += "Not computed: a spread from partial data would compare systems measured differently. Missing:\n\n";
        for (const auto& why : s.incomplete) md += "- " + cell_text(why) + "\n";
        return md + "\n";
    }
    const text::PrintfFormat format(s.format);
    std::vector<std::string> columns{s.across_metric};
    for (const auto& m : {s.numerator_metric, s.denominator_metric})
        if (std::find(columns.begin(), columns.end(), m) == columns.end()) columns.push_back(m);
    md += "| System |";
    for (const auto& c : columns) md += " " + cell_text(c) + " (median) |";
    md += " " + cell_text(s.numerator_metric + " / " + s.denominator_metric) + " |\n|---|";
    for (std::size_t i = 0; i <= columns.size(); ++i) md += "---|";
    md += "\n";
    for (const auto& sys : s.systems) {
        const std::map<std::string, double> value{
            {s.across_metric, sys.across}, {s.numerator_metric, sys.numerator}, {s.denominator_metric, sys.denominator}};
        md += "| " + cell_text(sys.plugin) + " |";
        for (const auto& c : columns) md += " " + format.apply(value.at(c)) + " |";
        md += " " + ratio_text(sys.within) + " |\n";
    }
    const auto& systems = s.systems;
    auto across_of = [&](const std::string& plugin) {
        return std::find_if(systems.begin(), systems.end(), [&](const auto& x) { return x.plugin == plugin; })->across;
    };
    md += "\n- Between the systems, `" + s.across_metric + "` (the largest median over the smallest): **" +
          ratio_text(s.across_spread) + "** (" + s.across_max_plugin + " " + format.apply(across_of(s.across_max_plugin)) +
          " / " + s.across_min_plugin + " " + format.apply(across_of(s.across_min_plugin)) + "), " +
          excess_text(s.across_spread) + ".\n";
    md += "- Within each system, `" + s.numerator_metric + "` / `" + s.denominator_metric + "`: median **" +
          ratio_text(s.within_median) + "** (" + excess_text(s.within_median) + "), from " + ratio_text(s.within_min) +
          " (" + s.within_min_plugin + ") to " + ratio_text(s.within_max) + " (" + s.within_max_plugin + ").\n";
    if (!s.quotient) return md + "- No quotient: " + s.no_quotient + ".\n\n";
    char buf[64];
    const double times = *s.quotient >= 1 ? *s.quotient : 1 / *s.quotient;
    std::snprintf(buf, sizeof(buf), "%.1fx %s than", times, *s.quotient >= 1 ? "smaller" : "larger");
    // Within 5 % either way the one-decimal factor would read "1.0x smaller".
    const std::string relation = times < 1.05 ? "about as large as" : buf;
    md += "- **The difference between the systems (" + excess_text(s.across_spread) + ") is " + relation +
          " the difference within a system (median " + excess_text(s.within_median) + ")**: ";
    std::snprintf(buf, sizeof(buf), "(%.2f - 1) / (%.2f - 1) = %.2f", s.within_median, s.across_spread, *s.quotient);
    return md + buf + ".\n\n";
}

json::object to_json(const SpreadRatio& s) {
    json::object o{{"title", s.title},
                   {"across", s.across_metric},
                   {"within", json::array{json::value(s.numerator_metric), json::value(s.denominator_metric)}},
                   {"computed", s.incomplete.empty()}};
    if (!s.incomplete.empty()) {
        json::array why;
        for (const auto& w : s.incomplete) why.emplace_back(w);
        o["incomplete"] = std::move(why);
        return o;
    }
    json::array systems;
    for (const auto& sys : s.systems)
        systems.push_back({{"plugin", sys.plugin},
                           {"across", sys.across},
                           {"numerator", sys.numerator},
                           {"denominator", sys.denominator},
                           {"within", sys.within}});
    o["systems"] = std::move(systems);
    o["across_spread"] = s.across_spread;
    o["across_max_plugin"] = s.across_max_plugin;
    o["across_min_plugin"] = s.across_min_plugin;
    o["within_median"] = s.within_median;
    o["within_min"] = s.within_min;
    o["within_min_plugin"] = s.within_min_plugin;
    o["within_max"] = s.within_max;
    o["within_max_plugin"] = s.within_max_plugin;
    o["quotient"] = s.quotient ? json::value(*s.quotient) : json::value(nullptr);
    if (!s.quotient) o["no_quotient"] = s.no_quotient;
    return o;
}

std::vector<SpreadRatio> all_of(const json::object& run, const std::vector<json::object>& reps) {
    std::vector<SpreadRatio> out;
    if (const json::value* list = run.if_contains("spread_ratios"); list != nullptr && list->is_array())
        for (const auto& spec : list->get_array())
            if (spec.is_object()) out.push_back(compute_spread_ratio(spec.get_object(), run, reps));
    return out;
}

}  // namespace

SpreadRatio compute_spread_ratio(const json::object& spec, const json::object& run, const std::vector<json::object>& reps) {
    SpreadRatio s;
    s.title = text_of(spec, "title");
    s.across_metric = text_of(spec, "across");
    const auto& within = spec.at("within").as_array();
    s.numerator_metric = std::string(within.at(0).as_string());
    s.denominator_metric = std::string(within.at(1).as_string());
    s.format = spec.contains("format") ? text_of(spec, "format") : "%.1f";

    std::vector<std::string> metrics{s.across_metric};  // distinct: `across` is often the numerator
    for (const auto& m : {s.numerator_metric, s.denominator_metric})
        if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
    std::map<std::string, std::map<std::string, std::vector<double>>> values;  // plugin -> metric -> values
    for (const auto& rep : reps) {
        const std::string key = text_of(rep, rundir::rep_key::kKey);
        if (text_of(rep, rundir::rep_key::kStatus) != "ok") {
            const std::string reason = text_of(rep, rundir::rep_key::kReason);
            s.incomplete.push_back(key + ": " + text_of(rep, rundir::rep_key::kStatus) + (reason.empty() ? "" : " (" + reason + ")"));
            continue;
        }
        const json::value* m = rep.if_contains(rundir::rep_key::kMetrics);
        for (const auto& metric : metrics) {
            const json::value* v = m != nullptr && m->is_object() ? m->get_object().if_contains(metric) : nullptr;
            if (v == nullptr || !v->is_number()) {
                s.incomplete.push_back(key + ": no value for " + metric);
                continue;
            }
            values[text_of(rep, rundir::rep_key::kPlugin)][metric].push_back(v->to_number<double>());
        }
    }
    note_unfinished_plan(run, reps, s.incomplete);
    const auto plugins = run_plugins(run, reps);
    for (const auto& plugin : plugins) {
        auto it = values.find(plugin);
        if (it == values.end() || it->second.size() < metrics.size()) {
            s.incomplete.push_back(plugin + ": no finished repetition with all of " + s.across_metric + ", " +
                                   s.numerator_metric + " and " + s.denominator_metric);
            continue;
        }
        SpreadSystem sys{plugin, stats::median(it->second.at(s.across_metric)),
                         stats::median(it->second.at(s.numerator_metric)),
                         stats::median(it->second.at(s.denominator_metric)), 0};
        auto need_positive = [&](const std::string& metric, double v) {
            if (!(v > 0))
                s.incomplete.push_back(plugin + ": the median " + metric + " is " + text::format_shortest(v) +
                                       ", a ratio needs it above 0");
        };
        need_positive(s.across_metric, sys.across);
        need_positive(s.denominator_metric, sys.denominator);
        sys.within = sys.numerator / sys.denominator;
        s.systems.push_back(sys);
    }
    if (plugins.size() < 2) s.incomplete.push_back("a spread between systems needs two systems or more");
    if (!s.incomplete.empty()) {
        s.systems.clear();
        return s;
    }
    summarize_systems(s);
    return s;
}

std::string spread_ratios_markdown(const json::object& run, const std::vector<json::object>& reps) {
    std::string md;
    for (const auto& s : all_of(run, reps)) md += section_markdown(s);
    return md;
}

json::array spread_ratios_json(const json::object& run, const std::vector<json::object>& reps) {
    json::array out;
    for (const auto& s : all_of(run, reps)) out.push_back(to_json(s));
    return out;
}

}  // namespace stand::report
