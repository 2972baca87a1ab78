// One io_uring load thread (uring_connection.hpp): its ring and its share of
// the connections; which request each sends next is the Dispatcher's
// (load_dispatch.hpp). Each turn of its loop hands the kernel every
// submission the connections queued since the last one and waits for
// completions in the same system call, until the next tick, the next sweep
// or the end of the window, whichever comes first. Plain HTTP/1.1 only; the
// Asio worker (load_worker.hpp) carries TLS and runs where io_uring is refused.
#pragma once

#include "load/load_dispatch.hpp"
#include "load/uring_connection.hpp"
#include "load/uring_ring.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace stand::load {

class UringWorker : public Dispatcher {
public:
    // Throws UringRefused when the ring cannot be made.
    UringWorker(RunShared& shared, unsigned index, unsigned connections);
    ~UringWorker() override;
    UringWorker(const UringWorker&) = delete;
    UringWorker& operator=(const UringWorker&) = delete;

    // Runs in the calling thread (the ring's one submitter): sends from
    // start_ns until end_ns (or the budget, or the stop flag), then waits for
    // the requests in flight.
    void run(std::int64_t start_ns, std::int64_t end_ns);

    // For the connections.
    io_uring_sqe* sqe() { return ring_.sqe(); }
    void rearm_later(UringConnection& c) { rearm_.push_back(&c); }

private:
    void arm_pace_at(std::int64_t t) override { pace_at_ = t; }
    void cancel_pace() override { pace_at_ = -1; }
    void on_finished() override { done_ = true; }
    void on_time(std::int64_t now, std::int64_t& next_sweep);
    std::int64_t next_wake(std::int64_t next_sweep) const noexcept;
    void reap();

    UringRing ring_;  // destroyed last: its teardown ends what the sockets left pending
    std::vector<std::unique_ptr<UringConnection>> connections_;
    std::vector<UringConnection*> rearm_;
    std::int64_t pace_at_ = -1;
    bool done_ = false;
};

}  // namespace stand::load
