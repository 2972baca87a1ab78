#include "text/junit_xml.hpp"

#include "text/xml_escape.hpp"

#include <cstdio>
#include <sstream>

namespace stand::text {
namespace {

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3f", s);
    return buf;
}

std::size_t count(const JunitSuite& suite, JunitCase::Outcome outcome) {
    std::size_t n = 0;
    for (const auto& c : suite.cases) n += c.outcome == outcome;
    return n;
}

void write_case(std::ostringstream& xml, const JunitCase& c) {
    using O = JunitCase::Outcome;
    xml << "    <testcase classname=\"" << xml_escape(c.classname) << "\" name=\"" << xml_escape(c.name)
        << "\" time=\"" << seconds_text(c.seconds) << "\">";
    switch (c.outcome) {
    case O::skipped: xml << "<skipped message=\"" << xml_escape(c.message) << "\"/>"; break;
    case O::failed:
        xml << "<failure message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.detail) << "</failure>";
        break;
    case O::error:
        xml << "<error message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.detail) << "</error>";
        break;
    case O::passed: xml << "<system-out>" << xml_escape(c.message) << "</system-out>"; break;
    }
    xml << "</testcase>\n";
}

}  // namespace

std::string junit_xml(const JunitSuite& suite) {
    using O = JunitCase::Outcome;
    double total = 0;
    for (const auto& c : suite.cases) total += c.seconds;
    std::ostringstream xml;
    xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
    xml << "  <testsuite name=\"" << xml_escape(suite.name) << "\" tests=\"" << suite.cases.size() << "\" failures=\""
        << count(suite, O::failed) << "\" skipped=\"" << count(suite, O::skipped) << "\" errors=\""
        << count(suite, O::error) << "\" time=\"" << seconds_text(total) << "\">\n";
    if (!suite.properties.empty()) {
        xml << "    <properties>";
        for (const auto& [k, v] : suite.properties)
            xml << "<property name=\"" << xml_escape(k) << "\" value=\"" << xml_escape(v) << "\"/>";
        xml << "</properties>\n";
    }
    for (const auto& c : suite.cases) write_case(xml, c);
    xml << "  </testsuite>\n</testsuites>\n";
    return xml.str();
}

}  // namespace stand::text
