#include "report/threshold_section.hpp"

#include "report/html_text.hpp"
#include "report/markdown_text.hpp"
#include "rundir/run_files.hpp"
#include "text/number_format.hpp"
#include "text/junit_xml.hpp"

#include <cstdio>

namespace stand::report {
namespace {

std::string value_text(const detect::ThresholdOutcome& o) { return o.value ? text::format_4g(*o.value) : "-"; }

std::string status_mark(const std::string& status) {
    return status == "passed" ? "passed" : status == "crossed" ? "**CROSSED**" : "**not evaluated**";
}

}  // namespace

ThresholdTally tally(const std::vector<detect::ThresholdOutcome>& outcomes) {
    ThresholdTally t;
    for (const auto& o : outcomes) {
        if (o.status == "passed") ++t.passed;
        else if (o.status == "crossed") ++t.crossed;
        else ++t.not_evaluated;
    }
    return t;
}

std::vector<detect::ThresholdOutcome> threshold_outcomes(const boost::json::object& results) {
    std::vector<detect::ThresholdOutcome> out;
    if (const auto* t = rundir::field(results, rundir::results_key::kThresholds); t && t->is_array())
        for (const auto& o : t->as_array()) out.push_back(detect::ThresholdOutcome::from_json(o.as_object()));
    return out;
}

std::string thresholds_line(const std::vector<detect::ThresholdOutcome>& outcomes) {
    const auto t = tally(outcomes);
    std::string line = "Thresholds: " + std::to_string(t.passed) + " passed";
    if (t.crossed) line += ", " + std::to_string(t.crossed) + " crossed";
    if (t.not_evaluated) line += ", " + std::to_string(t.not_evaluated) + " not evaluated";
    line += " (of " + std::to_string(outcomes.size()) + ")";
    std::string failing;
    for (const auto& o : outcomes)
        if (o.status != "passed") failing += (failing.empty() ? "" : "; ") + o.plugin + ": " + o.name + " " + o.status;
    return failing.empty() ? line : line + ": " + failing;
}

std::string thresholds_markdown(const std::vector<detect::ThresholdOutcome>& outcomes) {
    if (outcomes.empty()) return "";
    std::string md = "## Thresholds\n\nA threshold that is crossed or could not be evaluated fails the run (exit 99).\n\n"
                     "| Plugin | Threshold | Status | Compared | Detail |\n|---|---|---|---|---|\n";
    for (const auto& o : outcomes)
        md += "| " + cell_text(o.plugin) + " | " + cell_text(o.name) + " | " + status_mark(o.status) + " | " +
              value_text(o) + " | " + cell_text(o.message) + " |\n";
    return md + "\n";
}

std::string thresholds_html(const std::vector<detect::ThresholdOutcome>& outcomes) {
    if (outcomes.empty()) return "";
    std::string rows;
    for (const auto& o : outcomes) {
        const std::string cls = o.status == "passed" ? "pass" : "fail";
        rows += "<tr class=\"" + cls + "\"><td>" + html_escape(o.plugin) + "</td><td>" + html_escape(o.name) +
                "</td><td>" + html_escape(o.status) + "</td><td class=\"num\">" + html_escape(value_text(o)) +
                "</td><td>" + html_escape(o.message) + "</td></tr>";
    }
    return "<section id=\"thresholds\"><h2>Thresholds</h2><p>" + html_escape(thresholds_line(outcomes)) +
           ". A threshold that is crossed or could not be evaluated fails the run (exit 99).</p>"
           "<table class=\"thresholds\"><thead><tr><th>Plugin</th><th>Threshold</th><th>Status</th><th>Compared</th>"
           "<th>Detail</th></tr></thead><tbody>" +
           rows + "</tbody></table></section>";
}

std::string thresholds_junit(const std::vector<detect::ThresholdOutcome>& outcomes, const std::string& suite) {
    using O = text::JunitCase::Outcome;
    text::JunitSuite s{suite, {}, {}};
    for (const auto& o : outcomes) {
        const O outcome = o.status == "passed" ? O::passed : o.status == "crossed" ? O::failed : O::error;
        const std::string limit = (o.bound == "below" ? "below " : "above ") + text::format_exact(o.limit);
        s.cases.push_back({o.plugin, o.name, 0, outcome,
                           o.status + ": " + o.metric + " must stay " + limit + " (" + o.on + "), " + o.message,
                           "compared: " + value_text(o)});
    }
    return text::junit_xml(s);
}

}  // namespace stand::report
