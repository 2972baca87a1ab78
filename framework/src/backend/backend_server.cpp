#include "backend/backend_server.hpp"

#include "backend/await_token.hpp"
#include "backend/bind_listener.hpp"
#include "backend/control_session.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <string>

namespace stand::backend {

namespace net = boost::asio;
using net::ip::tcp;

namespace {

BackendOptions checked(BackendOptions options) {
    if (options.threads < 1 || options.threads > kMaxThreads)
        throw BackendError("threads must be in [1, " + std::to_string(kMaxThreads) + "], got " +
                           std::to_string(options.threads));
    if (options.body_bytes > kMaxBodyBytes)
        throw BackendError("body_bytes must be at most " + std::to_string(kMaxBodyBytes));
    if (options.ws_path.empty() || options.ws_path.front() != '/')
        throw BackendError("the websocket path must start with '/', got '" + options.ws_path + "'");
    return options;
}

std::uint64_t unix_ms_now() {
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count());
}

}  // namespace

BackendServer::BackendServer(BackendOptions options)
    : options_(checked(std::move(options))),
      plane_{std::string(options_.body_bytes, 'x'), options_.ws_path, counters_} {
    for (unsigned i = 0; i < options_.threads; ++i) {
        contexts_.push_back(std::make_unique<net::io_context>(1));
        keep_running_.push_back(net::make_work_guard(*contexts_.back()));
    }
    data_acceptor_.emplace(bind_listener(*contexts_.front(), options_.listen, "data"));
    control_acceptor_.emplace(bind_listener(*contexts_.front(), options_.control, "control"));
    listen_endpoint_ = data_acceptor_->local_endpoint();
    control_endpoint_ = control_acceptor_->local_endpoint();
    counters_.started_unix_ms.store(unix_ms_now());

    net::co_spawn(*contexts_.front(), accept_data(), net::detached);
    net::co_spawn(*contexts_.front(), accept_control(), net::detached);
    try {
        for (auto& context : contexts_) threads_.emplace_back([context = context.get()] { context->run(); });
    } catch (...) {
        stop();  // a thread could not be started: no thread may be left joinable
        throw;
    }
}

BackendServer::~BackendServer() {
    stop();
    keep_running_.clear();
    data_acceptor_.reset();
    control_acceptor_.reset();
    // The first context goes first: its pending accept holds a socket of
    // another context, which must still exist when that socket is dropped.
    for (auto& context : contexts_) context.reset();
}

void BackendServer::stop() {
    for (auto& context : contexts_)
        if (context) context->stop();
    for (auto& thread : threads_) thread.join();
    threads_.clear();
}

net::awaitable<void> BackendServer::accept_data() {
    std::size_t next = 0;
    for (;;) {
        net::io_context& context = *contexts_[next];
        next = (next + 1) % contexts_.size();
        tcp::socket socket(context);
        auto [error] = co_await data_acceptor_->async_accept(socket, kAwaitNoThrow);
        if (error == net::error::operation_aborted) co_return;
        if (error) {
            co_await pause_after_failed_accept();
            continue;
        }
        counters_.accepted.fetch_add(1, std::memory_order_relaxed);
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        net::co_spawn(context, serve_data_connection(std::move(socket), plane_), net::detached);
    }
}

net::awaitable<void> BackendServer::accept_control() {
    for (;;) {
        auto [error, socket] = co_await control_acceptor_->async_accept(kAwaitNoThrow);
        if (error == net::error::operation_aborted) co_return;
        if (error) {
            co_await pause_after_failed_accept();
            continue;
        }
        net::co_spawn(*contexts_.front(), serve_control_connection(std::move(socket), counters_), net::detached);
    }
}

}  // namespace stand::backend
