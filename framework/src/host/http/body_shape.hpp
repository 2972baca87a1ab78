// The shape of an HTTP response body without its values, as recordings of
// panel exchanges keep it (tests/data/real-panels/*/recording.json).
//
// JSON becomes a type tree: an object is {key: shape} with every key (sorted),
// an array is [shape] merging all its elements, an empty array is [], scalars
// are "string", "number", "boolean", "null". Shapes of different kinds merge
// into "a|b" (type names sorted). A non-JSON body is "text", an empty one "empty".
#pragma once

#include <boost/json/value.hpp>

#include <string_view>

namespace stand::host::http {

// A body is JSON when it parses and is an object or an array, or when its
// content type says JSON (so a JSON scalar under text/plain stays "text").
boost::json::value body_shape(std::string_view body, std::string_view content_type);

// The shape of a JSON value.
boost::json::value json_shape(const boost::json::value& value);

// Two shapes as one: objects unite their keys, arrays merge their elements,
// equal shapes stay, anything else becomes the sorted union of type names.
boost::json::value merge_shapes(const boost::json::value& a, const boost::json::value& b);

}  // namespace stand::host::http
