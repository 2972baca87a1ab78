#include "backend/control_session.hpp"

#include "backend/await_token.hpp"
#include "backend/http_reply.hpp"
#include "backend/read_request.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/serialize.hpp>

#include <string>

namespace stand::backend {

namespace http = boost::beast::http;

boost::asio::awaitable<void> serve_control_connection(boost::asio::ip::tcp::socket socket,
                                                      const BackendCounters& counters) {
    boost::beast::tcp_stream stream(std::move(socket));
    boost::beast::flat_buffer buffer;
    for (;;) {
        RequestParser parser;
        parser.body_limit(64 * 1024);
        if (auto error = co_await read_request(stream, buffer, parser)) co_return;
        const Request& request = parser.get();

        std::string stats_json;  // outlives the write below
        Reply reply;
        const bool wants_stats = path_of(request) == "/stats" &&
                                 (request.method() == http::verb::get || request.method() == http::verb::head);
        if (wants_stats) {
            stats_json = boost::json::serialize(to_json(counters.snapshot())) + "\n";
            reply = make_reply(request, http::status::ok, "application/json", stats_json);
        } else {
            reply = make_reply(request, http::status::not_found, "text/plain", "only GET /stats here\n");
        }
        auto [write_error, written] = co_await http::async_write(stream, reply, kAwaitNoThrow);
        if (write_error || reply.need_eof()) co_return;
    }
}

}  // namespace stand::backend
