// Text for Markdown table cells in the summary.
#pragma once

#include <boost/json/value.hpp>

#include <string>

namespace stand::report {

// `text` safe inside a table cell: '|' escaped, line breaks (\n, \r) as spaces.
std::string cell_text(std::string text);

// A recorded fact as text: strings as they are, arrays joined with "; ",
// anything else as JSON.
std::string fact_text(const boost::json::value& v);

}  // namespace stand::report
