// One Asio load thread: its own io_context (no locking: everything it owns
// runs on this thread) and its share of the connections; which request each
// sends next is the Dispatcher's (load_dispatch.hpp). The engine for TLS and
// the fallback where io_uring is refused (uring_worker.hpp is the other).
#pragma once

#include "load/load_connection.hpp"
#include "load/load_dispatch.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace stand::load {

class Worker : public Dispatcher {
public:
    Worker(RunShared& shared, unsigned index, unsigned connections);
    ~Worker() override;
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Runs in the calling thread: sends from start_ns until end_ns (or the
    // budget, or the stop flag), then waits for the requests in flight.
    void run(std::int64_t start_ns, std::int64_t end_ns);

    // For the connections.
    boost::asio::io_context& io() noexcept { return ioc_; }
    SSL_SESSION** session_slot(std::uint32_t route) noexcept {
        return route < sessions_.size() ? &sessions_[route] : nullptr;
    }

private:
    void arm_pace_at(std::int64_t t) override;
    void cancel_pace() override;
    void on_finished() override;
    void arm_sweep();

    boost::asio::io_context ioc_;
    boost::asio::steady_timer pace_timer_;
    boost::asio::steady_timer sweep_timer_;
    boost::asio::steady_timer end_timer_;
    std::vector<SSL_SESSION*> sessions_;  // --tls-resume: newest session per route
    std::vector<std::unique_ptr<Connection>> connections_;  // destroyed before ioc_
};

}  // namespace stand::load
