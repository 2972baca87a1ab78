// Reading a value nested in JSON objects by its keys, for documents this
// stand wrote itself (a generator's stand.load/1 result): a missing key or
// a value that is not an object on the way is null, never an exception.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <initializer_list>
#include <string_view>

namespace stand::text {

// o[path[0]][path[1]]..., or null.
const boost::json::value* json_at(const boost::json::object& o, std::initializer_list<std::string_view> path);

// A number as a double (0 when `v` is null or not a number).
double json_number(const boost::json::value* v);

}  // namespace stand::text
