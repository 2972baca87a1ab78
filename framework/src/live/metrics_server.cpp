#include "live/metrics_server.hpp"

#include "backend/await_token.hpp"
#include "backend/bind_listener.hpp"
#include "backend/http_reply.hpp"
#include "backend/read_request.hpp"
#include "live/live_metrics.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/write.hpp>

#include <csignal>
#include <string>

#include <pthread.h>

namespace stand::live {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;

net::awaitable<void> serve_connection(net::ip::tcp::socket socket, const LiveFigures& figures) {
    boost::beast::tcp_stream stream(std::move(socket));
    boost::beast::flat_buffer buffer;
    for (;;) {
        backend::RequestParser parser;
        parser.body_limit(64 * 1024);
        if (auto error = co_await backend::read_request(stream, buffer, parser)) co_return;
        const backend::Request& request = parser.get();
        std::string body;  // outlives the write below
        backend::Reply reply;
        const bool read = request.method() == http::verb::get || request.method() == http::verb::head;
        if (read && backend::path_of(request) == "/metrics") {
            const MetricFormat format = format_for_accept(request[http::field::accept]);
            body = render_metrics(live_metric_families(figures.snapshot()), format);
            reply = backend::make_reply(request, http::status::ok, content_type(format), body);
        } else {
            reply = backend::make_reply(request, http::status::not_found, "text/plain", "only GET /metrics here\n");
        }
        auto [write_error, written] = co_await http::async_write(stream, reply, backend::kAwaitNoThrow);
        if (write_error || reply.need_eof()) co_return;
    }
}

// The run's thread gets SIGINT and SIGTERM; this one never does.
void block_stop_signals() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
}

}  // namespace

MetricsServer::MetricsServer(const net::ip::tcp::endpoint& endpoint, const LiveFigures& figures)
    : figures_(figures), acceptor_(backend::bind_listener(context_, endpoint, "metrics")),
      endpoint_(acceptor_.local_endpoint()) {
    net::co_spawn(context_, accept(), net::detached);
    thread_ = std::thread([this] {
        block_stop_signals();
        context_.run();
    });
}

MetricsServer::~MetricsServer() {
    context_.stop();
    thread_.join();
}

net::awaitable<void> MetricsServer::accept() {
    for (;;) {
        auto [error, socket] = co_await acceptor_.async_accept(backend::kAwaitNoThrow);
        if (error == net::error::operation_aborted) co_return;
        if (error) {
            co_await backend::pause_after_failed_accept();
            continue;
        }
        net::co_spawn(context_, serve_connection(std::move(socket), figures_), net::detached);
    }
}

}  // namespace stand::live
