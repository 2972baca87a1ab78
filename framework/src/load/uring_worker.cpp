#include "load/uring_worker.hpp"

#include "load/load_clock.hpp"

#include <algorithm>

namespace stand::load {

UringWorker::UringWorker(RunShared& shared, unsigned index, unsigned connections)
    : Dispatcher(shared, index), ring_(connections) {
    connections_.reserve(connections);
    for (unsigned i = 0; i < connections; ++i) connections_.push_back(std::make_unique<UringConnection>(*this, i));
}

UringWorker::~UringWorker() { connections_.clear(); }

void UringWorker::run(std::int64_t start_ns, std::int64_t end_ns) {
    start_clocks();
    ring_.enable();
    std::vector<LoadConnection*> all;
    all.reserve(connections_.size());
    for (auto& c : connections_) all.push_back(c.get());
    std::int64_t next_sweep = start_ns + sweep_period().count();
    begin(start_ns, end_ns, all);
    while (!done_) {
        const std::int64_t now = now_ns();
        on_time(now, next_sweep);
        if (done_) break;
        if (!ring_.submit_and_wait(std::max<std::int64_t>(next_wake(next_sweep) - now, 0))) break;
        reap();
    }
    ring_.submit();  // the closes of the last connections
    if (!finished()) finished_at_ = now_ns();
    stop_clocks();
    publish();
}

void UringWorker::on_time(std::int64_t now, std::int64_t& next_sweep) {
    if (pace_at_ >= 0 && now >= pace_at_) {
        pace_at_ = -1;
        pace();
    }
    if (window_open() && now >= end_ns()) close_window(now);
    if (now >= next_sweep && !done_) {
        sweep();
        next_sweep = now + sweep_period().count();
    }
}

std::int64_t UringWorker::next_wake(std::int64_t next_sweep) const noexcept {
    std::int64_t wake = next_sweep;
    if (pace_at_ >= 0) wake = std::min(wake, pace_at_);
    if (window_open()) wake = std::min(wake, end_ns());
    return wake;
}

void UringWorker::reap() {
    io_uring* ring = ring_.raw();
    unsigned head = 0;
    unsigned seen = 0;
    io_uring_cqe* cqe = nullptr;
    io_uring_for_each_cqe(ring, head, cqe) {
        ++seen;
        const std::uint64_t tag = io_uring_cqe_get_data64(cqe);
        const auto index = static_cast<std::uint32_t>(tag >> 32);
        const auto generation = static_cast<std::uint32_t>((tag >> 8) & 0xffffff);
        const auto op = static_cast<UringConnection::Op>(tag & 0xff);
        const bool has_buffer = (cqe->flags & IORING_CQE_F_BUFFER) != 0;
        const auto buffer = static_cast<std::uint16_t>(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
        if (index < connections_.size() && connections_[index]->generation() == generation)
            connections_[index]->on_completion(op, cqe->res, cqe->flags, has_buffer ? ring_.buffer(buffer) : nullptr);
        if (has_buffer) ring_.recycle(buffer);
    }
    io_uring_cq_advance(ring, seen);
    ring_.commit();
    if (!rearm_.empty()) {
        std::vector<UringConnection*> again;
        again.swap(rearm_);
        for (UringConnection* c : again) c->rearm_receive();
    }
}

}  // namespace stand::load
