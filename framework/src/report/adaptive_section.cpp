#include "report/adaptive_section.hpp"

#include "report/markdown_text.hpp"

#include <cstdio>

namespace stand::report {

namespace json = boost::json;

std::string adaptive_markdown(const json::object& run) {
    const auto* a = run.if_contains("adaptive_repetitions");
    if (a == nullptr || !a->is_object() || !a->as_object().contains("plugins")) return "";
    const auto& rule = a->as_object();
    char target[32];
    std::snprintf(target, sizeof(target), "%g", rule.at("ci_width_pct").to_number<double>());
    std::string md = "## Adaptive repetitions\n\n";
    md += "Each plugin ran from " + fact_text(rule.at("min")) + " to at most " + fact_text(rule.at("max")) +
          " repetitions, until the 95 % bootstrap interval of the median of `" + cell_text(fact_text(rule.at("metric"))) +
          "` was at most " + target + " % of the median wide.\n\n";
    md += "| Plugin | Repetitions | Stopped |\n|---|---|---|\n";
    for (const auto& [label, v] : rule.at("plugins").as_object()) {
        const auto& p = v.as_object();
        md += "| " + cell_text(std::string(label)) + " | " + fact_text(p.at("repetitions")) + " | " +
              cell_text(fact_text(p.at("reason"))) + " |\n";
    }
    return md + "\n";
}

}  // namespace stand::report
