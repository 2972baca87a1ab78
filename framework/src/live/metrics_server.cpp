#include "live/metrics_server.hpp"

#include "backend/await_token.hpp"
#include "backend/bind_listener.hpp"
#include "backend/http_reply.hpp"
#include "backend/read_request.hpp"
#include "live/live_metrics.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/write.hpp>

#include <cerrno>
#include <csignal>
#include <string>

#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stand::live {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;

backend::Reply reply_to(const backend::Request& request, const LiveFigures& figures, std::string& body) {
    const bool read = request.method() == http::verb::get || request.method() == http::verb::head;
    if (!read || backend::path_of(request) != "/metrics")
        return backend::make_reply(request, http::status::not_found, "text/plain", "only GET /metrics here\n");
    const MetricFormat format = format_for_accept(request[http::field::accept]);
    body = render_metrics(live_metric_families(figures.snapshot()), format);
    return backend::make_reply(request, http::status::ok, content_type(format), body);
}

// The next connection, its descriptor closed on exec (accept4): the run
// forks and execs its plugin workers meanwhile, and a connection one of
// them inherited would outlive its close here. An error the accept loop
// waits after; none and no socket when a client left before its turn.
net::awaitable<boost::system::error_code> accept_one(net::ip::tcp::acceptor& acceptor,
                                                     net::ip::tcp::socket& socket) {
    auto [error] = co_await acceptor.async_wait(net::ip::tcp::acceptor::wait_read, backend::kAwaitNoThrow);
    if (error) co_return error;
    const int fd = ::accept4(acceptor.native_handle(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) {
        socket.assign(acceptor.local_endpoint().protocol(), fd, error);
        if (error) ::close(fd);
        co_return error;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED || errno == EINTR) co_return error;
    co_return boost::system::error_code(errno, boost::system::system_category());
}

// The run's thread gets SIGINT and SIGTERM; this one never does.
void block_stop_signals() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
}

}  // namespace

MetricsServer::MetricsServer(const net::ip::tcp::endpoint& endpoint, LiveFigures& figures)
    : figures_(figures), cap_(connection_cap_here()), acceptor_(backend::bind_listener(context_, endpoint, "metrics")),
      endpoint_(acceptor_.local_endpoint()) {
    figures_.listener_counted({.cap = cap_});
    // Before any plugin worker is forked: none of them holds the port.
    ::fcntl(acceptor_.native_handle(), F_SETFD, FD_CLOEXEC);
    acceptor_.non_blocking(true);
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

// A flood of connections waits in the kernel's backlog, where it holds no
// descriptor of this process, while the accepts wait for their turn.
net::awaitable<void> MetricsServer::accept() {
    for (;;) {
        co_await wait_turn();
        net::ip::tcp::socket socket(context_);
        const auto error = co_await accept_one(acceptor_, socket);
        if (error == net::error::operation_aborted) co_return;
        if (error) {
            co_await backend::pause_after_failed_accept();
            continue;
        }
        if (!socket.is_open()) continue;
        if (open_ >= cap_) {
            boost::system::error_code ignored;
            socket.close(ignored);
            figures_.listener_counted({.refused = 1});
            continue;
        }
        ++open_;
        net::co_spawn(context_, serve(std::move(socket)), net::detached);
    }
}

net::awaitable<void> MetricsServer::serve(net::ip::tcp::socket socket) {
    boost::beast::tcp_stream stream(std::move(socket));
    boost::beast::flat_buffer buffer;
    boost::system::error_code error;
    while (!error) {
        backend::RequestParser parser;
        parser.body_limit(64 * 1024);
        stream.expires_after(kRequestTimeout);
        if ((error = co_await backend::read_request(stream, buffer, parser))) break;
        co_await wait_turn();
        std::string body;  // outlives the write below
        backend::Reply reply = reply_to(parser.get(), figures_, body);
        stream.expires_after(kRequestTimeout);
        auto [write_error, written] = co_await http::async_write(stream, reply, backend::kAwaitNoThrow);
        error = write_error;
        if (!error) figures_.listener_counted({.requests = 1});
        if (reply.need_eof()) break;
    }
    if (error == boost::beast::error::timeout) figures_.listener_counted({.timed_out = 1});
    --open_;
}

net::awaitable<void> MetricsServer::wait_turn() {
    const auto wait = pace_.wait_at(std::chrono::steady_clock::now());
    if (wait.count() == 0) co_return;
    figures_.listener_counted({.paced = 1});
    net::steady_timer timer(context_, wait);
    co_await timer.async_wait(backend::kAwaitNoThrow);
}

}  // namespace stand::live
