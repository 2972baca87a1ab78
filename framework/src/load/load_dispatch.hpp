// Which request each free connection of one load thread sends next, and
// when: the part of a load thread that does not depend on how it does I/O.
// The Asio thread (load_worker.hpp) and the io_uring thread
// (uring_worker.hpp) each derive from Dispatcher and give it their timer and
// their end-of-run.
//
// Closed model: a connection that finishes sends the next link at once.
// Open model: the thread owns every T-th tick of the global schedule
// (tick g is due at start + g / rate, g = thread index + j * threads). A due
// tick goes to a free connection; when none is free it waits in the backlog
// and is sent, late, by the next connection to finish. Its latency counts
// from the tick's time (coordinated omission corrected). Ticks still
// waiting when the window ends are reported as unsent, never dropped.
#pragma once

#include "load/load_plan.hpp"
#include "load/load_spec.hpp"
#include "load/load_stats.hpp"
#include "load/tls_client.hpp"
#include "load/worker_progress.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
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

// One connection as the dispatcher sees it. All calls on the thread's own
// loop; start() must not call back into the dispatcher before it returns.
class LoadConnection {
public:
    virtual ~LoadConnection() = default;
    // Starts a request of link `link`; when it is done (response or error)
    // the connection records it and calls Dispatcher::on_idle().
    virtual void start(std::uint32_t link, std::int64_t intended_ns, std::int64_t now_ns) = 0;
    virtual bool busy() const noexcept = 0;
    virtual std::int64_t deadline() const noexcept = 0;
    // The request's deadline passed: abort it; it ends as a timeout.
    virtual void expire() noexcept = 0;
    // Drops an idle connection.
    virtual void close() noexcept = 0;
};

class Dispatcher : public WorkerProgress {
public:
    Dispatcher(RunShared& shared, unsigned index);
    virtual ~Dispatcher() = default;
    Dispatcher(const Dispatcher&) = delete;
    Dispatcher& operator=(const Dispatcher&) = delete;

    const RunShared& shared() const noexcept { return shared_; }
    std::int64_t since_start(std::int64_t ns) const noexcept { return ns - start_; }
    std::size_t second_of(std::int64_t ns) const noexcept {
        return ns > start_ ? static_cast<std::size_t>((ns - start_) / 1'000'000'000) : 0;
    }
    // A connection finished its request (recorded) and is free.
    void on_idle(LoadConnection& c, std::int64_t now);

protected:
    // Sends the first requests over `connections` (the window opens).
    void begin(std::int64_t start_ns, std::int64_t end_ns, const std::vector<LoadConnection*>& connections);
    // The pace timer (armed through arm_pace_at) fired.
    void pace();
    // Periodically, every sweep_period(): progress, the stop flag, the end
    // of the window, requests past their deadline.
    void sweep();
    void close_window(std::int64_t now);
    bool finished() const noexcept { return finished_; }
    bool window_open() const noexcept { return window_open_; }
    std::int64_t end_ns() const noexcept { return end_; }
    std::chrono::nanoseconds sweep_period() const noexcept { return sweep_period_; }

    // The loop's part. arm_pace_at: call pace() at steady time t (one
    // pending at a time; a new one replaces it). cancel_pace: forget it.
    // on_finished: the window closed and nothing is in flight: cancel the
    // timers, close the connections, leave the loop.
    virtual void arm_pace_at(std::int64_t t) = 0;
    virtual void cancel_pace() = 0;
    virtual void on_finished() = 0;

private:
    bool take_link(std::uint32_t& link) noexcept;
    void start_request(LoadConnection& c, std::uint32_t link, std::int64_t intended, std::int64_t now);
    void send_closed(LoadConnection& c, std::int64_t now);
    // Saturates: a tick beyond about 31 years (a rate far below one request
    // in the window) is never due, rather than an overflowed cast.
    std::int64_t tick_time(std::uint64_t j) const noexcept {
        const double offset = static_cast<double>(index_ + j * shared_.threads) * interval_ns_;
        if (!(offset < 1e18)) return std::numeric_limits<std::int64_t>::max();
        return start_ + static_cast<std::int64_t>(offset);
    }
    void advance_due(std::int64_t now) noexcept;
    // from_backlog: the tick waited for a connection to finish (late by the
    // system's latency); else a connection was free and only the generator was late.
    void send_tick(LoadConnection& c, std::int64_t now, bool from_backlog);
    void arm_pace();
    void maybe_finish();

    RunShared& shared_;
    const unsigned index_;
    std::vector<LoadConnection*> connections_;
    std::vector<LoadConnection*> idle_;
    std::int64_t start_ = 0;
    std::int64_t end_ = 0;
    std::chrono::nanoseconds sweep_period_;
    double interval_ns_ = 0;        // open model: time between global ticks
    std::uint64_t due_ = 0;         // ticks due so far (open model)
    std::uint64_t dispatched_ = 0;  // ticks sent so far
    unsigned busy_ = 0;
    bool window_open_ = false;
    bool pace_armed_ = false;
    bool finished_ = false;
};

}  // namespace stand::load
