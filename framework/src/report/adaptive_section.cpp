#include "report/adaptive_section.hpp"

#include "report/html_text.hpp"
#include "report/markdown_text.hpp"

#include <cstdio>
#include <optional>
#include <vector>

namespace stand::report {
namespace {

namespace json = boost::json;

struct PluginLine {
    std::string label, repetitions, reason;
};

struct Section {
    std::string rule;  // "Each plugin ran from 3 to at most 10 repetitions, until ..."
    std::vector<PluginLine> plugins;
};

std::optional<Section> section_of(const json::object& run) {
    const auto* a = run.if_contains("adaptive_repetitions");
    if (a == nullptr || !a->is_object() || !a->as_object().contains("plugins")) return std::nullopt;
    const auto& rule = a->as_object();
    char target[32];
    std::snprintf(target, sizeof(target), "%g", rule.at("ci_width_pct").to_number<double>());
    Section s;
    s.rule = "Each plugin ran from " + fact_text(rule.at("min")) + " to at most " + fact_text(rule.at("max")) +
             " repetitions, until the 95 % bootstrap interval of the median of " + fact_text(rule.at("metric")) +
             " was at most " + target + " % of the median wide.";
    for (const auto& [label, v] : rule.at("plugins").as_object())
        s.plugins.push_back({std::string(label), fact_text(v.at("repetitions")), fact_text(v.at("reason"))});
    return s;
}

}  // namespace

std::string adaptive_markdown(const json::object& run) {
    const auto s = section_of(run);
    if (!s) return "";
    std::string md = "## Adaptive repetitions\n\n" + s->rule + "\n\n| Plugin | Repetitions | Stopped |\n|---|---|---|\n";
    for (const auto& p : s->plugins)
        md += "| " + cell_text(p.label) + " | " + p.repetitions + " | " + cell_text(p.reason) + " |\n";
    return md + "\n";
}

std::string adaptive_html(const json::object& run) {
    const auto s = section_of(run);
    if (!s) return "";
    std::string out = "<h3>Adaptive repetitions</h3><p class=\"note\">" + html_escape(s->rule) +
                      "</p><table><thead><tr><th>Plugin</th><th>Repetitions</th><th>Stopped</th></tr></thead><tbody>";
    for (const auto& p : s->plugins)
        out += "<tr><td>" + html_escape(p.label) + "</td><td class=\"num\">" + html_escape(p.repetitions) + "</td><td>" +
               html_escape(p.reason) + "</td></tr>";
    return out + "</tbody></table>";
}

}  // namespace stand::report
