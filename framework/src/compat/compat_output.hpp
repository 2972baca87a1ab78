// Renders a compat report as a text table, JSON or JUnit XML.
#pragma once

#include "compat/compat_suite.hpp"

#include <boost/json.hpp>

#include <string>

namespace stand::compat {

std::string format_check_line(const CheckOutcome& outcome);
std::string format_summary(const CompatReport& report);
boost::json::object to_json(const CompatReport& report);
std::string to_junit_xml(const CompatReport& report);

}  // namespace stand::compat
