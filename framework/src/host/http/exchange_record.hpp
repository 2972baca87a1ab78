// What a recording keeps of one finished HTTP call: no value of the response
// (no header value, cookie value or body value) is kept, only names and shapes.
#pragma once

#include <boost/json/value.hpp>

#include <set>
#include <string>

namespace stand::host::http {

struct ExchangeRecord {
    std::string label;
    std::string method;
    std::string path;          // the request's path as sent (no query); normalised by the recorder
    int status = 0;
    std::string content_type;  // media type, lower case, no parameters; "" when absent
    std::set<std::string> cookies;  // names from Set-Cookie
    std::set<std::string> headers;  // which of recorded_headers() were present
    boost::json::value body;        // body_shape()
};

}  // namespace stand::host::http
