#include "compat/compat_output.hpp"

#include <cstdio>
#include <sstream>

namespace stand::compat {
namespace {

const char* verdict(const ChildResult& r) { return r.skipped ? "skip" : r.passed ? "pass" : "FAIL"; }

std::string xml_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            // XML 1.0 forbids most control characters even when escaped.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') out += '?';
            else out += c;
        }
    }
    return out;
}

std::string seconds(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3f", ms / 1000.0);
    return buf;
}

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
    double total_ms = 0;
    for (const auto& c : report.checks) total_ms += c.result.elapsed_ms;
    std::ostringstream xml;
    xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml << "<testsuites>\n";
    xml << "  <testsuite name=\"stand compat " << xml_escape(report.plugin_label) << "\" tests=\""
        << report.checks.size() << "\" failures=\"" << report.failed() << "\" skipped=\"" << report.skipped()
        << "\" errors=\"0\" time=\"" << seconds(total_ms) << "\">\n";
    xml << "    <properties><property name=\"file\" value=\"" << xml_escape(report.file.string())
        << "\"/></properties>\n";
    for (const auto& c : report.checks) {
        xml << "    <testcase classname=\"" << xml_escape(report.plugin_label) << "\" name=\"" << xml_escape(c.id)
            << "\" time=\"" << seconds(c.result.elapsed_ms) << "\">";
        if (c.result.skipped) xml << "<skipped message=\"" << xml_escape(c.result.message) << "\"/>";
        else if (!c.result.passed)
            xml << "<failure message=\"" << xml_escape(c.result.message) << "\">" << xml_escape(c.description)
                << "</failure>";
        else xml << "<system-out>" << xml_escape(c.result.message) << "</system-out>";
        xml << "</testcase>\n";
    }
    xml << "  </testsuite>\n</testsuites>\n";
    return xml.str();
}

}  // namespace stand::compat
