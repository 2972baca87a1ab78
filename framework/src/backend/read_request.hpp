// Reads the next request of a connection with Beast's parser. Bytes after
// the request stay in `buffer`, so pipelined requests are read in turn.
#pragma once

#include "backend/http_reply.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>

namespace stand::backend {

using RequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

// Answers "Expect: 100-continue" before reading the body, since such
// clients wait for it (curl does, up to a second, for larger POSTs).
boost::asio::awaitable<boost::system::error_code> read_request(boost::beast::tcp_stream& stream,
                                                               boost::beast::flat_buffer& buffer,
                                                               RequestParser& parser);

}  // namespace stand::backend
