// One load thread: its own io_context (no locking: everything it owns runs
// on this thread), its share of the connections, and the decision which
// request each free connection sends next.
//
// Closed model: a connection that finishes sends the next link at once.
// Open model: the thread owns every T-th tick of the global schedule
// (tick g is due at start + g / rate, g = thread index + j * threads). A due
// tick goes to a free connection; when none is free it waits in the backlog
// and is sent, late, by the next connection to finish. Its latency counts
// from the tick's time (coordinated omission corrected). Ticks still
// waiting when the window ends are reported as unsent, never dropped.
#pragma once

#include "load/load_connection.hpp"
#include "load/load_plan.hpp"
#include "load/load_spec.hpp"
#include "load/load_stats.hpp"
#include "load/worker_progress.hpp"
#include "load/tls_client.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace stand::load {

// What the threads of one run share: read-only but for the round robin.
struct RunShared {
    const LoadSpec* spec = nullptr;
    const Plan* plan = nullptr;
    TlsClient* tls = nullptr;
    bool open_model = false;
    unsigned threads = 1;
    std::int64_t timeout_ns = 0;
    std::int64_t late_ns = 0;
    std::uint64_t slow_us = 0;
    std::uint64_t max_requests = 0;
    const std::atomic<bool>* stop = nullptr;
    // The global round robin over the links, and the request budget.
    alignas(64) std::atomic<std::uint64_t> next{0};
};

class Worker : public WorkerProgress {
public:
    Worker(RunShared& shared, unsigned index, unsigned connections);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Runs in the calling thread: sends from start_ns until end_ns (or the
    // budget, or the stop flag), then waits for the requests in flight.
    void run(std::int64_t start_ns, std::int64_t end_ns);

    // For the connections.
    boost::asio::io_context& io() noexcept { return ioc_; }
    const RunShared& shared() const noexcept { return shared_; }
    SSL_SESSION** session_slot(std::uint32_t route) noexcept {
        return route < sessions_.size() ? &sessions_[route] : nullptr;
    }
    std::size_t second_of(std::int64_t ns) const noexcept {
        return ns > start_ ? static_cast<std::size_t>((ns - start_) / 1'000'000'000) : 0;
    }
    // A connection finished its request (recorded) and is free.
    void on_idle(Connection& c, std::int64_t now);

private:
    bool take_link(std::uint32_t& link) noexcept;
    void start_request(Connection& c, std::uint32_t link, std::int64_t intended, std::int64_t now);
    void send_closed(Connection& c, std::int64_t now);
    std::int64_t tick_time(std::uint64_t j) const noexcept {
        return start_ + static_cast<std::int64_t>(static_cast<double>(index_ + j * shared_.threads) * interval_ns_);
    }
    void advance_due(std::int64_t now) noexcept;
    void send_tick(Connection& c, std::int64_t now);
    void pace();
    void arm_pace();
    void arm_sweep();
    void sweep();
    void close_window(std::int64_t now);
    void maybe_finish();

    RunShared& shared_;
    const unsigned index_;
    boost::asio::io_context ioc_;
    boost::asio::steady_timer pace_timer_;
    boost::asio::steady_timer sweep_timer_;
    boost::asio::steady_timer end_timer_;
    std::vector<SSL_SESSION*> sessions_;  // --tls-resume: newest session per route
    std::vector<std::unique_ptr<Connection>> connections_;  // destroyed before ioc_
    std::vector<Connection*> idle_;

    std::int64_t start_ = 0;
    std::int64_t end_ = 0;
    std::chrono::nanoseconds sweep_period_;
    double interval_ns_ = 0;     // open model: time between global ticks
    std::uint64_t due_ = 0;      // ticks due so far (open model)
    std::uint64_t dispatched_ = 0;  // ticks sent so far
    unsigned busy_ = 0;
    bool window_open_ = false;
    bool pace_armed_ = false;
    bool finished_ = false;
};

}  // namespace stand::load
