// The backend's HTTP responses. Each is a header and a span of bytes that
// outlives the write (the fixed body, a literal, the stats JSON), so
// answering a request copies no body.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/span_body.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include <string_view>

namespace stand::backend {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Reply = boost::beast::http::response<boost::beast::http::span_body<const char>>;

// A response in the request's HTTP version that keeps the connection alive
// when the request asks for it (HTTP/1.1 by default, HTTP/1.0 with
// "Connection: keep-alive"). A HEAD gets the Content-Length of `body`
// without the body.
Reply make_reply(const Request& request, boost::beast::http::status status, std::string_view content_type,
                 std::string_view body);

// The request target without its query string.
std::string_view path_of(const Request& request);

}  // namespace stand::backend
