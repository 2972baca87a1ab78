#include "load/load_worker.hpp"

#include "load/load_clock.hpp"

namespace stand::load {

Worker::Worker(RunShared& shared, unsigned index, unsigned connections)
    : Dispatcher(shared, index), ioc_(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE), pace_timer_(ioc_), sweep_timer_(ioc_),
      end_timer_(ioc_) {
    if (shared.tls != nullptr && shared.tls->resume()) sessions_.assign(shared.plan->routes, nullptr);
    connections_.reserve(connections);
    for (unsigned i = 0; i < connections; ++i) connections_.push_back(std::make_unique<Connection>(*this));
}

Worker::~Worker() {
    connections_.clear();
    for (SSL_SESSION* s : sessions_)
        if (s != nullptr) SSL_SESSION_free(s);
}

void Worker::run(std::int64_t start_ns, std::int64_t end_ns) {
    start_clocks();
    end_timer_.expires_at(time_point_of(end_ns));
    end_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) close_window(now_ns());
    });
    arm_sweep();
    std::vector<LoadConnection*> all;
    all.reserve(connections_.size());
    for (auto& c : connections_) all.push_back(c.get());
    begin(start_ns, end_ns, all);
    ioc_.run();
    if (!finished()) finished_at_ = now_ns();
    stop_clocks();
    publish();
}

void Worker::arm_pace_at(std::int64_t t) {
    pace_timer_.expires_at(time_point_of(t));
    pace_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) pace();
    });
}

void Worker::cancel_pace() { pace_timer_.cancel(); }

void Worker::arm_sweep() {
    sweep_timer_.expires_after(sweep_period());
    sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || finished()) return;
        sweep();
        if (!finished()) arm_sweep();
    });
}

void Worker::on_finished() {
    pace_timer_.cancel();
    sweep_timer_.cancel();
    end_timer_.cancel();
    ioc_.stop();
}

}  // namespace stand::load
