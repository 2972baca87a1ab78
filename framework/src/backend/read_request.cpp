#include "backend/read_request.hpp"

#include "backend/await_token.hpp"

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/core/string.hpp>

namespace stand::backend {

namespace http = boost::beast::http;

boost::asio::awaitable<boost::system::error_code> read_request(boost::beast::tcp_stream& stream,
                                                               boost::beast::flat_buffer& buffer,
                                                               RequestParser& parser) {
    auto [error, header_bytes] = co_await http::async_read_header(stream, buffer, parser, kAwaitNoThrow);
    if (error) co_return error;
    if (!parser.is_done() &&
        boost::beast::iequals(parser.get()[http::field::expect], "100-continue")) {
        http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
        auto [write_error, written] = co_await http::async_write(stream, go_on, kAwaitNoThrow);
        if (write_error) co_return write_error;
    }
    if (!parser.is_done()) {
        auto [body_error, body_bytes] = co_await http::async_read(stream, buffer, parser, kAwaitNoThrow);
        error = body_error;
    }
    co_return error;
}

}  // namespace stand::backend
