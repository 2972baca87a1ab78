// One HTTP/3 load thread: its own io_context and its share of the QUIC
// connections. Closed model: every connection keeps `streams` requests in
// flight and sends the next one when a response completes. With keep-alive
// off a connection carries one request and is replaced by a new one (a full
// handshake per request). All links must share one origin (one QUIC peer).
#pragma once

#include "load/load_plan.hpp"
#include "load/load_spec.hpp"
#include "load/load_engine.hpp"
#include "load/load_stats.hpp"
#include "load/pass_runner.hpp"
#include "load/worker_progress.hpp"
#include "quic/http3_layer.hpp"
#include "quic/quic_connection.hpp"
#include "quic/udp_io_summary.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace stand::load {

struct Http3Shared {
    const LoadSpec* spec = nullptr;
    const Plan* plan = nullptr;
    std::vector<std::vector<quic::Http3Field>> fields;  // per link
    quic::QuicOptions quic;  // remote, timeouts, congestion control
    std::int64_t timeout_ns = 0;
    std::uint64_t max_requests = 0;
    const std::atomic<bool>* stop = nullptr;
    alignas(64) std::atomic<std::uint64_t> next{0};
};

class Http3Worker : public WorkerProgress {
public:
    Http3Worker(Http3Shared& shared, unsigned connections);
    ~Http3Worker();
    Http3Worker(const Http3Worker&) = delete;
    Http3Worker& operator=(const Http3Worker&) = delete;

    void run(std::int64_t start_ns, std::int64_t end_ns);

    // For the clients (http3_worker.cpp).
    boost::asio::io_context& io() noexcept { return ioc_; }
    const Http3Shared& shared() const noexcept { return shared_; }
    bool window_open() const noexcept { return !window_closed_flag_; }
    bool take_link(std::uint32_t& link) noexcept;
    std::int64_t since_start(std::int64_t ns) const noexcept { return ns - start_; }
    std::size_t second_of(std::int64_t ns) const noexcept {
        return ns > start_ ? static_cast<std::size_t>((ns - start_) / 1'000'000'000) : 0;
    }
    const quic::QuicTlsContext& tls() const noexcept { return *tls_; }
    void client_idle();
    // The first reason a connection failed, for the result's warnings.
    void note_failure(const std::string& reason) {
        if (first_failure_.empty()) first_failure_ = reason;
    }
    const std::string& first_failure() const noexcept { return first_failure_; }
    // The UDP paths and datagrams of this thread's connections, each added when it is dropped.
    quic::UdpIoSummary& udp() noexcept { return udp_; }

    class Client;

private:
    void arm_sweep();
    void close_window();

    Http3Shared& shared_;
    boost::asio::io_context ioc_{1};  // run by this worker's thread alone: posts from it skip the reactor
    boost::asio::steady_timer sweep_timer_;
    boost::asio::steady_timer end_timer_;
    std::unique_ptr<quic::QuicTlsContext> tls_;
    std::vector<std::unique_ptr<Client>> clients_;
    std::int64_t start_ = 0;
    bool window_closed_flag_ = false;
    std::string first_failure_;
    quic::UdpIoSummary udp_;
};

// The --http3 pass: one Http3Worker per thread, results merged into `out`.
PassTimes run_http3_pass(const LoadSpec& spec, const Plan& plan, const LoadHooks& hooks, LoadResult& out);

}  // namespace stand::load
