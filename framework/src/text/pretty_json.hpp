// JSON with one member or element per line, two spaces per level: for files
// people diff and read.
#pragma once

#include <boost/json.hpp>

#include <ostream>
#include <string>

namespace stand::text {

// `indent` is the indentation of the line `v` starts on. A number beyond a
// double is written as null (text/finite_json.hpp).
void write_pretty_json(std::ostream& out, const boost::json::value& v, const std::string& indent = "");

}  // namespace stand::text
