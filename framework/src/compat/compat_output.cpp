#include "compat/compat_output.hpp"

#include "text/junit_xml.hpp"

#include <cstdio>
#include <sstream>

namespace stand::compat {
namespace {

const char* verdict(const ChildResult& r) { return r.skipped ? "skip" : r.passed ? "pass" : "FAIL"; }

}  // namespace

std::string format_check_line(const CheckOutcome& o) {
    char head[160];
    std::snprintf(head, sizeof(head), "  %-4s  %-34s %8.1f ms  ", verdict(o.result), o.id.c_str(), o.result.elapsed_ms);
    return head + o.result.message;
}

std::string format_summary(const CompatReport& report) {
    std::ostringstream out;
    out << report.passed() << " passed, " << report.failed() << " failed";
    if (report.skipped()) out << ", " << report.skipped() << " skipped";
    if (report.not_selected) out << "; " << report.not_selected << " more check(s) of the suite not run (--check)";
    return out.str();
}

boost::json::object to_json(const CompatReport& report) {
    boost::json::array checks;
    for (const auto& c : report.checks)
        checks.push_back({{"id", c.id},
                          {"description", c.description},
                          {"result", verdict(c.result)},
                          {"elapsed_ms", c.result.elapsed_ms},
                          {"message", c.result.message}});
    return {{"plugin", report.plugin_label},
            {"file", report.file.string()},
            {"passed", report.passed()},
            {"failed", report.failed()},
            {"skipped", report.skipped()},
            {"not_selected", report.not_selected},
            {"checks", std::move(checks)}};
}

std::string to_junit_xml(const CompatReport& report) {
    text::JunitSuite suite{"stand compat " + report.plugin_label, {{"file", report.file.string()}}, {}};
    for (const auto& c : report.checks) {
        using O = text::JunitCase::Outcome;
        const O outcome = c.result.skipped ? O::skipped : c.result.passed ? O::passed : O::failed;
        suite.cases.push_back({report.plugin_label, c.id, c.result.elapsed_ms / 1000.0, outcome, c.result.message,
                               c.description});
    }
    return text::junit_xml(suite);
}

}  // namespace stand::compat
