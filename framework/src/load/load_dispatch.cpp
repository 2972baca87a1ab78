#include "load/load_dispatch.hpp"

#include "load/load_clock.hpp"

#include <algorithm>

namespace stand::load {

namespace {

std::chrono::nanoseconds sweep_period_for(std::int64_t timeout_ns) {
    // Timeouts are found by a sweep, not a timer per request: within 10 %.
    return std::chrono::nanoseconds(std::clamp<std::int64_t>(timeout_ns / 10, 1'000'000, 100'000'000));
}

std::size_t seconds_hint(const LoadSpec& spec) {
    return static_cast<std::size_t>(std::min<std::int64_t>(spec.duration.count() / 1'000'000'000 + 2, 3600));
}

}  // namespace

Dispatcher::Dispatcher(RunShared& shared, unsigned index)
    : WorkerProgress(shared.plan->links.size(), seconds_hint(*shared.spec), shared.slow_us, shared.open_model,
                     shared.spec->histogram_interval.count()),
      shared_(shared), index_(index), sweep_period_(sweep_period_for(shared.timeout_ns)) {
    if (shared.open_model) interval_ns_ = 1e9 / shared.spec->rate;
}

void Dispatcher::begin(std::int64_t start_ns, std::int64_t end_ns, const std::vector<LoadConnection*>& connections) {
    start_ = start_ns;
    end_ = end_ns;
    connections_ = connections;
    idle_.reserve(connections.size());
    window_open_ = true;
    if (shared_.open_model) {
        idle_ = connections;
        pace();
    } else {
        const std::int64_t now = now_ns();
        for (LoadConnection* c : connections) {
            if (!window_open_) {
                idle_.push_back(c);
                continue;
            }
            send_closed(*c, now);
        }
    }
    maybe_finish();
}

bool Dispatcher::take_link(std::uint32_t& link) noexcept {
    const std::uint64_t k = shared_.next.fetch_add(1, std::memory_order_relaxed);
    if (shared_.max_requests != 0 && k >= shared_.max_requests) return false;
    link = static_cast<std::uint32_t>(k % shared_.plan->links.size());
    return true;
}

void Dispatcher::start_request(LoadConnection& c, std::uint32_t link, std::int64_t intended, std::int64_t now) {
    ++busy_;
    if (shared_.open_model) {
        auto& second = stats_.second(second_of(now));
        second.in_flight_max = std::max<std::uint64_t>(second.in_flight_max, busy_);
    }
    ++stats_.sent;
    ++stats_.per_link[link];
    c.start(link, intended, now);
}

void Dispatcher::send_closed(LoadConnection& c, std::int64_t now) {
    std::uint32_t link = 0;
    if (now >= end_ || !take_link(link)) {
        idle_.push_back(&c);
        close_window(now);
        return;
    }
    start_request(c, link, now, now);
}

void Dispatcher::on_idle(LoadConnection& c, std::int64_t now) {
    --busy_;
    if (!window_open_) {
        idle_.push_back(&c);
        maybe_finish();
        return;
    }
    if (!shared_.open_model) {
        send_closed(c, now);
        return;
    }
    advance_due(now);
    if (dispatched_ < due_) {
        send_tick(c, now, true);
        stats_.max_backlog = std::max(stats_.max_backlog, due_ - dispatched_);
        return;
    }
    idle_.push_back(&c);
    arm_pace();
}

void Dispatcher::advance_due(std::int64_t now) noexcept {
    for (;;) {
        const std::int64_t t = tick_time(due_);
        if (t > now || t >= end_) return;
        ++due_;
    }
}

void Dispatcher::send_tick(LoadConnection& c, std::int64_t now, bool from_backlog) {
    std::uint32_t link = 0;
    if (!take_link(link)) {
        idle_.push_back(&c);
        close_window(now);
        return;
    }
    const std::int64_t intended = tick_time(dispatched_++);
    const std::int64_t lag = now - intended;
    if (lag > shared_.late_ns) {
        ++stats_.late;
        if (!from_backlog) ++stats_.late_with_free_connection;
    }
    stats_.send_lag.record(ns_to_us(lag));
    start_request(c, link, intended, now);
}

void Dispatcher::pace() {
    pace_armed_ = false;
    if (!window_open_) return;
    const std::int64_t now = now_ns();
    if (now >= end_) {
        close_window(now);
        return;
    }
    advance_due(now);
    while (dispatched_ < due_ && !idle_.empty() && window_open_) {
        LoadConnection* c = idle_.back();
        idle_.pop_back();
        send_tick(*c, now, false);
    }
    stats_.max_backlog = std::max(stats_.max_backlog, due_ - dispatched_);
    auto& second = stats_.second(second_of(now));
    second.backlog_max = std::max(second.backlog_max, due_ - dispatched_);
    if (!idle_.empty()) arm_pace();
}

void Dispatcher::arm_pace() {
    if (pace_armed_ || !window_open_) return;
    const std::int64_t t = tick_time(dispatched_);
    if (t >= end_) return;  // no tick left in the window
    pace_armed_ = true;
    arm_pace_at(t);
}

void Dispatcher::sweep() {
    const std::int64_t now = now_ns();
    publish();
    if (window_open_ && (now >= end_ || (shared_.stop != nullptr && shared_.stop->load(std::memory_order_relaxed))))
        close_window(now);
    for (LoadConnection* c : connections_)
        if (c->busy() && c->deadline() <= now) c->expire();
}

void Dispatcher::close_window(std::int64_t now) {
    if (!window_open_) return;
    window_open_ = false;
    window_closed_ = std::min(now, end_);
    cancel_pace();
    pace_armed_ = false;
    if (shared_.open_model) {
        // Every tick scheduled before the window closed was offered.
        std::uint64_t offered = dispatched_;
        while (tick_time(offered) < window_closed_) ++offered;
        stats_.offered = offered;
        stats_.unsent = offered - dispatched_;
    } else {
        stats_.offered = stats_.sent;
    }
    maybe_finish();
}

void Dispatcher::maybe_finish() {
    if (window_open_ || busy_ != 0 || finished_) return;
    finished_ = true;
    finished_at_ = now_ns();
    cancel_pace();
    for (LoadConnection* c : connections_) c->close();
    on_finished();
}

}  // namespace stand::load
