#include "tunnel/tunnel_run.hpp"

#include "hysteria/hysteria_client.hpp"
#include "quic/quic_error.hpp"
#include "stats/descriptive.hpp"
#include "tunnel/client_setup.hpp"
#include "tunnel/small_request.hpp"
#include "load/load_clock.hpp"
#include "load/load_stats.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <memory>
#include <unordered_map>


namespace stand::tunnel {

namespace asio = boost::asio;
using hysteria::StreamEnd;

void TunnelSpec::validate() const {
    if (streams == 0 || streams > 1024) throw TunnelSpecError("streams must be in 1..1024");
    if (duration <= std::chrono::nanoseconds(0)) throw TunnelSpecError("duration must be positive");
    if (probe_interval < std::chrono::milliseconds(1)) throw TunnelSpecError("the probe interval must be at least 1ms");
    if (probe_timeout <= std::chrono::nanoseconds(0)) throw TunnelSpecError("the probe timeout must be positive");
    check_sink(sink, allow_remote);
    if (!quic::parse_congestion_control(congestion_control))
        throw TunnelSpecError("congestion control '" + congestion_control + "': expected cubic, bbr, bbr2 or reno");
    if (below_mbit < 0) throw TunnelSpecError("the below threshold must not be negative");
}

namespace {

class Run;

// One /zero download: counts bytes into the run's current second.
class ZeroStream final : public hysteria::ProxyStreamHandler {
public:
    explicit ZeroStream(Run& run) : run_(run) {}
    void on_open(bool ok, const std::string& message) override;
    void on_data(const std::uint8_t* data, std::size_t len) override;
    void on_end(StreamEnd how, const std::string& why) override;
    std::int64_t id = -1;

private:
    Run& run_;
};

class Run {
public:
    Run(const TunnelSpec& spec, const TunnelHooks& hooks, ClientSetup setup, TunnelResult& result)
        : spec_(spec), hooks_(hooks), result_(result), probe_timer_(io_), tick_timer_(io_), end_timer_(io_), stop_timer_(io_),
          setup_(std::move(setup)) {
        hysteria::HysteriaEvents events;
        events.on_ready = [this] { on_ready(); };
        events.on_closed = [this](const quic::CloseInfo& info, bool authenticated) { on_lost(info, authenticated); };
        events.on_streams_available = [this] { top_up(); };
        client_ = std::make_unique<hysteria::HysteriaClient>(io_, *setup_.tls, setup_.options, spec.link.auth,
                                                             std::move(events));
        client_->declare_rx(static_cast<std::uint64_t>(spec.rx_mbit * 125'000));
    }

    void run() {
        start_ = load::now_ns();
        const double cpu_before = load::process_cpu_seconds();
        end_timer_.expires_after(spec_.duration);
        end_timer_.async_wait([this](boost::system::error_code ec) {
            if (!ec) close_window();
        });
        arm_tick();
        arm_stop_poll();
        arm_probe();
        connect();
        io_.run();
        result_.window_s = static_cast<double>(window_end_ - start_) / 1e9;
        result_.cpu_s = load::process_cpu_seconds() - cpu_before;
        result_.udp = client_->udp_io();
    }

    // For the stream handlers.
    void add_bytes(std::size_t n) {
        result_.bytes += n;
        const auto now = load::now_ns();
        if (hooks_.live != nullptr) {
            hooks_.live->bytes.fetch_add(n, std::memory_order_relaxed);
            hooks_.live->last_data_ns.store(now, std::memory_order_relaxed);
        }
        const auto sec = second_of(now);
        if (sec >= bytes_by_second_.size()) bytes_by_second_.resize(sec + 1, 0);
        bytes_by_second_[sec] += n;
    }
    void zero_ended(ZeroStream& s, StreamEnd how) {
        if (how != StreamEnd::closed_locally) ++result_.streams_dropped;
        zeros_.erase(s.id);
        if (open_) top_up();
    }
    void probe_done(SmallRequest& p, bool ok) {
        if (ok) {
            ++result_.probes_ok;
            result_.probe_latency.record(load::ns_to_us(load::now_ns() - p.started()));
        } else {
            ++result_.probes_failed;
        }
        if (p.stream_id >= 0) client_->close_stream(p.stream_id);
    }
    bool window_open() const noexcept { return open_; }
    hysteria::HysteriaClient& client() noexcept { return *client_; }

private:
    std::size_t second_of(std::int64_t ns) const noexcept {
        return ns > start_ ? static_cast<std::size_t>((ns - start_) / 1'000'000'000) : 0;
    }

    void connect() {
        try {
            client_->connect();
        } catch (const quic::QuicSetupError& e) {
            result_.warnings.push_back(std::string("cannot open the QUIC socket: ") + e.what());
            close_window();
        }
    }

    void on_ready() {
        const auto* conn = client_->connection();
        if (!first_ready_) {
            first_ready_ = true;
            result_.handshake_ms = static_cast<double>(client_->handshake_time().count()) / 1e6;
            result_.auth_ms = static_cast<double>(client_->auth_time().count()) / 1e6;
            result_.server_udp = client_->server_udp();
            result_.server_cc_rx = client_->server_cc_rx();
        } else if (lost_at_ != 0) {
            ++result_.reconnects;
            result_.reconnect_gaps_ms.push_back(static_cast<double>(load::now_ns() - lost_at_) / 1e6);
            lost_at_ = 0;
        }
        (void)conn;
        if (open_) top_up();
        else client_->close();
    }

    void on_lost(const quic::CloseInfo& info, bool authenticated) {
        // Streams were ended (connection_lost) by the client before this.
        if (!open_) return;
        if (authenticated) {
            ++result_.connection_losses;
            lost_at_ = load::now_ns();
        } else if (!first_ready_ && result_.loss_reasons.empty()) {
            result_.warnings.push_back("the first connection failed: " + info.reason);
        }
        if (result_.loss_reasons.size() < 5) result_.loss_reasons.push_back(info.reason);
        // Reconnect at once after a loss; after a failed attempt, wait a little.
        auto delay = authenticated ? std::chrono::milliseconds(0) : std::chrono::milliseconds(50);
        auto timer = std::make_shared<asio::steady_timer>(io_, delay);
        timer->async_wait([this, timer](boost::system::error_code) {
            if (open_) connect();
        });
    }

    void top_up() {
        if (!open_ || !client_->ready()) return;
        while (zeros_.size() < spec_.streams) {
            auto stream = std::make_unique<ZeroStream>(*this);
            const std::int64_t id = client_->open_tcp(spec_.sink, *stream);
            if (id < 0) return;
            stream->id = id;
            client_->send(id, kZeroRequest, false);
            zeros_[id] = stream.get();
            owned_zeros_.push_back(std::move(stream));
            ++result_.streams_opened;
        }
    }

    void arm_probe() {
        probe_timer_.expires_after(spec_.probe_interval);
        probe_timer_.async_wait([this](boost::system::error_code ec) {
            if (ec || !open_) return;
            send_probe();
            expire_probes();
            arm_probe();
        });
    }

    void send_probe() {
        ++result_.probes_sent;
        auto probe = std::make_unique<SmallRequest>(
            load::now_ns(), [this](SmallRequest& p, bool ok, const std::string&) { probe_done(p, ok); });
        const std::int64_t id = client_->ready() ? client_->open_tcp(spec_.sink, *probe) : -1;
        if (id < 0) {
            ++result_.probes_failed;  // no tunnel (or no stream credit) at this moment
            return;
        }
        probe->stream_id = id;
        client_->send(id, kSmallRequest, false);
        probes_.push_back(std::move(probe));
    }

    void expire_probes() {
        const std::int64_t now = load::now_ns();
        for (auto& p : probes_)
            if (!p->finished() && now - p->started() > spec_.probe_timeout.count()) p->fail("timeout");
        // Keep only the unfinished ones (finished ones have no pending events:
        // their streams were closed, which detaches them).
        probes_.erase(std::remove_if(probes_.begin(), probes_.end(), [](const auto& p) { return p->finished(); }),
                      probes_.end());
    }

    void arm_tick() {
        tick_timer_.expires_at(load::time_point_of(start_ + static_cast<std::int64_t>(ticks_ + 1) * 1'000'000'000));
        tick_timer_.async_wait([this](boost::system::error_code ec) {
            if (ec || !open_) return;
            ++ticks_;
            if (hooks_.stop != nullptr && hooks_.stop->load()) {
                close_window();
                return;
            }
            if (hooks_.on_progress) {
                TunnelProgress p;
                p.elapsed_s = static_cast<double>(ticks_);
                const auto last = ticks_ - 1;
                p.mbit_last_second = last < bytes_by_second_.size() ? static_cast<double>(bytes_by_second_[last]) * 8 / 1e6 : 0;
                p.probes_ok = result_.probes_ok;
                p.streams_dropped = result_.streams_dropped;
                p.reconnects = result_.reconnects;
                hooks_.on_progress(p);
            }
            arm_tick();
        });
    }

    // The stop flag (Ctrl-C) within 100 ms: a step ends within a second of it.
    void arm_stop_poll() {
        if (hooks_.stop == nullptr) return;
        stop_timer_.expires_after(std::chrono::milliseconds(100));
        stop_timer_.async_wait([this](boost::system::error_code ec) {
            if (ec || !open_) return;
            if (hooks_.stop->load()) {
                close_window();
                return;
            }
            arm_stop_poll();
        });
    }

    void close_window() {
        if (!open_) return;
        open_ = false;
        window_end_ = load::now_ns();
        probe_timer_.cancel();
        tick_timer_.cancel();
        end_timer_.cancel();
        stop_timer_.cancel();
        for (auto& p : probes_) p->fail("the window closed");
        std::vector<ZeroStream*> zeros;
        for (auto& [id, z] : zeros_) zeros.push_back(z);
        for (auto* z : zeros) client_->close_stream(z->id);
        zeros_.clear();
        client_->close();
        finish_series();
    }

    void finish_series() {
        const auto whole = static_cast<std::size_t>((window_end_ - start_) / 1'000'000'000);
        bytes_by_second_.resize(std::max(whole, bytes_by_second_.size()), 0);
        for (std::size_t i = 0; i < whole; ++i)
            result_.mbit_per_second.push_back(static_cast<double>(bytes_by_second_[i]) * 8 / 1e6);
    }

    const TunnelSpec& spec_;
    const TunnelHooks& hooks_;
    TunnelResult& result_;
    asio::io_context io_{1};  // one thread: posts from it skip the reactor
    asio::steady_timer probe_timer_;
    asio::steady_timer tick_timer_;
    asio::steady_timer end_timer_;
    asio::steady_timer stop_timer_;
    ClientSetup setup_;
    std::unique_ptr<hysteria::HysteriaClient> client_;
    std::unordered_map<std::int64_t, ZeroStream*> zeros_;   // open, by stream id
    std::vector<std::unique_ptr<ZeroStream>> owned_zeros_;  // every one opened; freed with the run
    std::vector<std::unique_ptr<SmallRequest>> probes_;
    std::vector<std::uint64_t> bytes_by_second_;
    std::int64_t start_ = 0;
    std::int64_t window_end_ = 0;
    std::int64_t lost_at_ = 0;
    std::size_t ticks_ = 0;
    bool open_ = true;
    bool first_ready_ = false;
};

void ZeroStream::on_open(bool ok, const std::string&) {
    (void)ok;  // a refusal ends the stream (on_end), which counts it
}
void ZeroStream::on_data(const std::uint8_t*, std::size_t len) { run_.add_bytes(len); }
void ZeroStream::on_end(StreamEnd how, const std::string&) { run_.zero_ended(*this, how); }

}  // namespace

TunnelResult run_tunnel(const TunnelSpec& spec, const TunnelHooks& hooks) {
    spec.validate();
    ClientSetup setup = make_client_setup(spec.link, spec.ca_file, spec.congestion_control, spec.handshake_timeout,
                                          spec.allow_remote);
    setup.options.udp_batching = spec.udp_batching;
    TunnelResult result;
    result.server = spec.link.host + ":" + std::to_string(spec.link.port);
    result.sink = spec.sink;
    result.streams = spec.streams;
    result.duration_s = static_cast<double>(spec.duration.count()) / 1e9;
    result.probe_interval_ms = static_cast<double>(spec.probe_interval.count()) / 1e6;
    result.congestion_control = spec.congestion_control;
    result.obfs = !spec.link.obfs.empty();
    result.rx_mbit = spec.rx_mbit;
    {
        Run run(spec, hooks, std::move(setup), result);
        run.run();
    }
    result.mbit_mean = result.window_s > 0 ? static_cast<double>(result.bytes) * 8 / 1e6 / result.window_s : 0;
    // A window shorter than a second has no whole second: no threshold then.
    result.below_mbit = spec.below_mbit > 0             ? spec.below_mbit
                        : result.mbit_per_second.empty() ? 0
                                                          : stats::median(result.mbit_per_second) / 2;
    for (double m : result.mbit_per_second)
        if (m < result.below_mbit) ++result.seconds_below;
    result.mbit_per_cpu_s = result.cpu_s > 0 ? static_cast<double>(result.bytes) * 8 / 1e6 / result.cpu_s : 0;
    if (result.bytes == 0) result.warnings.push_back("no byte came through the tunnel");
    return result;
}

}  // namespace stand::tunnel
