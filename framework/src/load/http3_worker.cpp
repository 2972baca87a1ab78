#include "load/http3_worker.hpp"

#include "load/http3_request.hpp"
#include "load/load_clock.hpp"
#include "quic/quic_error.hpp"

#include <boost/asio/post.hpp>

#include <nghttp3/nghttp3.h>

#include <unordered_map>
#include <utility>

namespace stand::load {

namespace asio = boost::asio;

namespace {

struct Http3Error {
    ErrorKind kind;
    const char* reason;
};

// The requests in flight when a QUIC connection closed, or its failed handshake.
Http3Error error_of(const quic::CloseInfo& info) {
    switch (info.cause) {
    case quic::CloseCause::refused: return {ErrorKind::connect_refused, "ICMP port unreachable"};
    case quic::CloseCause::tls: return {ErrorKind::tls, "QUIC TLS handshake failed"};
    case quic::CloseCause::version_negotiation:
        return {ErrorKind::connect, "the server answered with Version Negotiation (no QUIC version in common)"};
    case quic::CloseCause::handshake_timeout: return {ErrorKind::timeout, "no QUIC handshake within the timeout"};
    case quic::CloseCause::idle_timeout: return {ErrorKind::timeout, "QUIC idle timeout"};
    case quic::CloseCause::peer:
        return info.handshake_done ? Http3Error{ErrorKind::closed, "the peer closed the QUIC connection"}
                                   : Http3Error{ErrorKind::connect, "the peer closed the QUIC handshake"};
    case quic::CloseCause::local:
        return info.handshake_done ? Http3Error{ErrorKind::other, "QUIC connection closed after a local error"}
                                   : Http3Error{ErrorKind::connect, "QUIC handshake ended by a local error"};
    }
    return {ErrorKind::other, "QUIC connection closed"};
}

// A connection whose every datagram from the peer was dropped as no QUIC
// packet (quic/datagram_shape.hpp): why it never completed a handshake,
// rather than the timeout it ran into.
constexpr const char* kOnlyNotQuic =
    "no QUIC handshake: every datagram from the peer was not a QUIC packet (empty or too short)";

bool only_not_quic(const quic::QuicCounters& c) noexcept {
    return c.packets_received > 0 && c.packets_dropped == c.packets_received;
}

// The warning's text: the close's reason, and the datagrams behind it.
std::string failure_text(const std::string& reason, const quic::QuicCounters& c) {
    if (!only_not_quic(c)) return reason;
    return reason + "; the peer sent " + std::to_string(c.packets_received) +
           " datagrams, none a QUIC packet (empty or too short)";
}

// This side's own close of a connection it was done with (H3_NO_ERROR): no failure.
bool ended_by_us(const quic::CloseInfo& info) noexcept {
    return info.cause == quic::CloseCause::local && info.application;
}

}  // namespace

// One QUIC connection and its requests in flight.
class Http3Worker::Client final : public quic::QuicApp, public quic::Http3Listener {
public:
    Client(Http3Worker& worker, unsigned streams) : worker_(worker), streams_(streams) {}
    ~Client() override { drop_connection(); }

    void connect() {
        drop_connection();
        requests_on_connection_ = 0;
        refill_wanted_ = responses_ended_ = false;  // the old connection's
        conn_ = std::make_shared<quic::QuicConnection>(worker_.io(), worker_.tls(), worker_.shared().quic, *this);
        h3_ = std::make_unique<quic::Http3Layer>(*conn_, *this);
        ++worker_.stats().connections_opened;
        try {
            conn_->start();
        } catch (const quic::QuicSetupError&) {
            // A socket that cannot even be opened: count it and stop this client.
            worker_.stats().record_error(ErrorKind::connect, "cannot open a UDP socket", worker_.second_of(now_ns()));
            drop_connection();
            failed_ = true;
        }
    }

    // Every request in flight that outlived the timeout counts as one and
    // its stream is cancelled.
    void sweep(std::int64_t now) {
        const std::int64_t limit = worker_.shared().timeout_ns;
        for (auto it = inflight_.begin(); it != inflight_.end();) {
            if (now - it->second.start_ns > limit) {
                worker_.stats().record_error(ErrorKind::timeout, "no response within the timeout",
                                             worker_.second_of(now));
                if (conn_) conn_->shutdown_stream(it->first, NGHTTP3_H3_REQUEST_CANCELLED);
                it = inflight_.erase(it);
            } else {
                ++it;
            }
        }
        // A handshake that takes too long is closed by QuicOptions::handshake_timeout.
        fill();
    }

    // The window closed: finish what is in flight, then close.
    void wind_down() {
        if (!inflight_.empty()) return;
        // A client that got no handshake at all during the load errs here with its reason, not nothing: a
        // server that never completes one (e.g. it answers only with a Version Negotiation the client must
        // ignore). A connection per request leaves one handshake open at every normal end: not an error.
        if (conn_ && !conn_->closed() && !conn_->handshake_done() && !handshaken_) {
            const bool garbage = only_not_quic(conn_->counters());
            worker_.stats().record_error(garbage ? ErrorKind::connect : ErrorKind::timeout,
                                         garbage ? kOnlyNotQuic : "no QUIC handshake by the end of the load",
                                         worker_.second_of(now_ns()));
            worker_.note_failure(failure_text("no QUIC handshake by the end of the load", conn_->counters()));
        }
        close_quietly();
    }

    bool idle() const noexcept { return !conn_ || conn_->closed(); }
    // After the run: the connection's UDP figures go to the worker's summary.
    void retire() { drop_connection(); }

    // quic::QuicApp
    int on_handshake_completed(quic::QuicConnection& conn) override {
        auto& stats = worker_.stats();
        ++stats.tls_handshakes;
        handshaken_ = true;
        stats.connect.record(ns_to_us(conn.handshake_time().count()));
        if (int rv = h3_->start(); rv != 0) return rv;
        refill_soon(false);
        return 0;
    }
    int on_stream_data(std::int64_t id, const std::uint8_t* data, std::size_t len, bool fin) override {
        return h3_->on_stream_data(id, data, len, fin);
    }
    int on_acked(std::int64_t id, std::uint64_t len) override { return h3_->on_acked(id, len); }
    int on_stream_close(std::int64_t id, std::uint64_t code, bool set) override {
        return h3_->on_stream_close(id, code, set);
    }
    int on_stream_reset(std::int64_t id, std::uint64_t) override { return h3_->on_stream_reset(id); }
    int on_stream_stop_sending(std::int64_t id, std::uint64_t) override { return h3_->on_stream_reset(id); }
    void on_stream_unblocked(std::int64_t id) override { h3_->on_stream_unblocked(id); }
    void on_streams_available() override { refill_soon(false); }
    void on_datagram(const std::uint8_t*, std::size_t) override {}
    int next_chunk(quic::StreamChunk& chunk) override { return h3_->next_chunk(chunk); }
    int on_written(std::int64_t id, std::size_t len) override { return h3_->on_written(id, len); }
    void on_blocked(std::int64_t id) override { h3_->on_blocked(id); }
    void on_shut_write(std::int64_t id) override { h3_->on_shut_write(id); }

    void on_closed(const quic::CloseInfo& info) override {
        const std::int64_t now = now_ns();
        auto& stats = worker_.stats();
        if (!inflight_.empty()) {
            const Http3Error e = error_of(info);
            for (std::size_t i = 0; i < inflight_.size(); ++i)
                stats.record_error(e.kind, e.reason, worker_.second_of(now));
            inflight_.clear();
        } else if (!info.handshake_done && !ended_by_us(info)) {
            // No request was sent yet: the failed handshake itself is the error.
            Http3Error e = error_of(info);
            if (conn_ && only_not_quic(conn_->counters())) e = {ErrorKind::connect, kOnlyNotQuic};
            stats.record_error(e.kind, e.reason, worker_.second_of(now));
        }
        if (!ended_by_us(info)) worker_.note_failure(conn_ ? failure_text(info.reason, conn_->counters()) : info.reason);
        // Reconnect from a fresh stack frame: this one is inside the old connection.
        const bool quick = info.handshake_done;
        asio::post(worker_.io(), [this, quick] { reconnect_later(quick); });
        worker_.publish_counts();
    }

    // quic::Http3Listener
    void on_header(std::int64_t id, std::string_view name, std::string_view value) override {
        auto it = inflight_.find(id);
        if (it == inflight_.end()) return;
        worker_.stats().bytes_received += name.size() + value.size() + 2;
        if (name == ":status") it->second.status = quic::parse_status_field(value);
    }
    void on_headers_done(std::int64_t) override {}
    void on_body(std::int64_t id, const std::uint8_t*, std::size_t len) override {
        auto it = inflight_.find(id);
        if (it == inflight_.end()) return;
        it->second.body += len;
        worker_.stats().bytes_received += len;
    }
    void on_end(std::int64_t id) override {
        auto it = inflight_.find(id);
        if (it == inflight_.end()) return;
        const std::int64_t now = now_ns();
        const std::int64_t took = now - it->second.start_ns;
        if (it->second.status < 200)  // nothing final: a status outside 100..599, or only interim sections
            worker_.stats().record_error(ErrorKind::parse, "no final :status in 200..599", worker_.second_of(now));
        else
            worker_.stats().record_response(it->second.status, took, took, it->second.body, worker_.since_start(now));
        inflight_.erase(it);
        worker_.publish_counts();
        refill_soon(true);
    }
    void on_stream_closed(std::int64_t id, std::uint64_t) override {
        auto it = inflight_.find(id);
        if (it == inflight_.end()) return;
        // Closed without a complete response: reset by the server.
        worker_.stats().record_error(ErrorKind::reset, "stream closed before the response was complete",
                                     worker_.second_of(now_ns()));
        inflight_.erase(it);
        refill_soon(true);
    }


private:
    struct Request {
        std::int64_t start_ns = 0;
        int status = 0;
        std::uint64_t body = 0;
    };

    // fill() (after_response() when a response ended) out of the
    // connection's callbacks: when they came from received datagrams, in
    // on_datagrams_processed (the new requests leave with the ACKs);
    // otherwise from one post, however many responses ended.
    void refill_soon(bool after_a_response) {
        responses_ended_ = responses_ended_ || after_a_response;
        refill_wanted_ = true;
        if (refill_posted_ || (conn_ && conn_->reading())) return;
        refill_posted_ = true;
        asio::post(worker_.io(), [this] {
            refill_posted_ = false;
            refill();
        });
    }
    void refill() {
        if (!std::exchange(refill_wanted_, false)) return;
        if (std::exchange(responses_ended_, false)) after_response();
        else fill();
    }
    void on_datagrams_processed() override { refill(); }

    void after_response() {
        if (!worker_.shared().spec->keepalive && inflight_.empty()) {
            close_quietly();  // on_closed connects the next one
            return;
        }
        fill();
    }

    void fill() {
        if (!conn_ || conn_->closed() || !conn_->handshake_done() || !h3_->started()) return;
        if (!worker_.window_open()) {
            wind_down();
            worker_.client_idle();
            return;
        }
        const bool one_per_connection = !worker_.shared().spec->keepalive;
        while (inflight_.size() < streams_ && !(one_per_connection && requests_on_connection_ > 0)) {
            // Take a request from the budget only when a stream can carry it.
            if (conn_->bidi_streams_left() == 0) return;  // on_streams_available resumes
            std::uint32_t link = 0;
            if (!worker_.take_link(link)) {
                wind_down();
                return;
            }
            const auto& shared = worker_.shared();
            const std::int64_t id = h3_->submit(shared.fields[link], &shared.spec->links.shape(link).body);
            if (id < 0) {
                worker_.stats().record_error(ErrorKind::other, "nghttp3 refused the request fields",
                                             worker_.second_of(now_ns()));
                worker_.note_failure("nghttp3 refused the request fields of link " + std::to_string(link));
                return;
            }
            auto& stats = worker_.stats();
            ++stats.sent;
            ++stats.per_link[link];
            ++requests_on_connection_;
            inflight_[id] = Request{now_ns(), 0, 0};
        }
    }

    void reconnect_later(bool quick) {
        if (!worker_.window_open() || failed_) {
            worker_.client_idle();
            return;
        }
        if (quick) {
            connect();
            return;
        }
        // A handshake that failed: try again, but not in a busy loop.
        auto timer = std::make_shared<asio::steady_timer>(worker_.io(), std::chrono::milliseconds(10));
        timer->async_wait([this, timer](boost::system::error_code) {
            if (worker_.window_open() && !failed_) connect();
            else worker_.client_idle();
        });
    }

    void close_quietly() {
        if (conn_ && !conn_->closed()) {
            // H3_NO_ERROR: a normal end; on_closed then sees CloseCause::local.
            auto c = conn_;
            c->close(NGHTTP3_H3_NO_ERROR, "done");
        }
    }

    void drop_connection() {
        if (!conn_) return;
        conn_->abandon();
        worker_.udp().add(*conn_);
        h3_.reset();
        conn_.reset();
    }

    Http3Worker& worker_;
    const unsigned streams_;
    std::shared_ptr<quic::QuicConnection> conn_;
    std::unique_ptr<quic::Http3Layer> h3_;
    std::unordered_map<std::int64_t, Request> inflight_;
    std::uint64_t requests_on_connection_ = 0;
    bool failed_ = false;
    bool handshaken_ = false;  // some connection of this client completed its handshake
    bool refill_posted_ = false;
    bool refill_wanted_ = false;
    bool responses_ended_ = false;  // since the refill was posted
};

Http3Worker::Http3Worker(Http3Shared& shared, unsigned connections)
    : WorkerProgress(shared.plan->links.size(),
                     static_cast<std::size_t>(std::min<std::int64_t>(shared.spec->duration.count() / 1'000'000'000 + 2, 3600)),
                     ns_to_us(shared.spec->slow_threshold.count()), false, shared.spec->histogram_interval.count()),
      shared_(shared),
      sweep_timer_(ioc_),
      end_timer_(ioc_) {
    quic::QuicTlsOptions tls;
    const Origin& first = shared.plan->origin(shared.plan->links.front());
    tls.sni = first.sni;
    tls.verify_name = first.verify_host;
    tls.insecure = shared.spec->tls.insecure;
    tls.ca_file = shared.spec->tls.ca_file;
    tls_ = std::make_unique<quic::QuicTlsContext>(tls);
    for (unsigned i = 0; i < connections; ++i) clients_.push_back(std::make_unique<Client>(*this, shared.spec->http3.streams));
}

Http3Worker::~Http3Worker() { clients_.clear(); }

bool Http3Worker::take_link(std::uint32_t& link) noexcept {
    if (shared_.stop != nullptr && shared_.stop->load(std::memory_order_relaxed)) {
        close_window();
        return false;
    }
    const std::uint64_t n = shared_.next.fetch_add(1, std::memory_order_relaxed);
    if (shared_.max_requests != 0 && n >= shared_.max_requests) {
        close_window();
        return false;
    }
    link = static_cast<std::uint32_t>(n % shared_.plan->links.size());
    return true;
}

void Http3Worker::close_window() {
    if (window_closed_flag_) return;
    window_closed_flag_ = true;
    window_closed_ = now_ns();
    end_timer_.cancel();
    for (auto& c : clients_) c->wind_down();
    client_idle();
}

void Http3Worker::client_idle() {
    if (!window_closed_flag_) return;
    for (auto& c : clients_)
        if (!c->idle()) return;
    sweep_timer_.cancel();
}

void Http3Worker::arm_sweep() {
    const std::int64_t period = std::clamp<std::int64_t>(shared_.timeout_ns / 10, 1'000'000, 100'000'000);
    sweep_timer_.expires_after(std::chrono::nanoseconds(period));
    sweep_timer_.async_wait([this](boost::system::error_code ec) {
        if (ec) return;
        const std::int64_t now = now_ns();
        for (auto& c : clients_) c->sweep(now);
        publish();
        if (shared_.stop != nullptr && shared_.stop->load(std::memory_order_relaxed)) close_window();
        bool all_idle = true;
        for (auto& c : clients_) all_idle = all_idle && c->idle();
        if (!(window_closed_flag_ && all_idle)) arm_sweep();
    });
}

void Http3Worker::run(std::int64_t start_ns, std::int64_t end_ns) {
    start_clocks();
    start_ = start_ns;
    if (end_ns <= start_ns) {
        window_closed_flag_ = true;
        window_closed_ = start_ns;
    } else {
        end_timer_.expires_at(time_point_of(end_ns));
        end_timer_.async_wait([this](boost::system::error_code ec) {
            if (!ec) close_window();
        });
        for (auto& c : clients_) c->connect();
        arm_sweep();
    }
    ioc_.run();
    for (auto& c : clients_) c->retire();
    if (!window_closed_flag_) window_closed_ = now_ns();
    finished_at_ = now_ns();
    stop_clocks();
    publish();
}

PassTimes run_http3_pass(const LoadSpec& spec, const Plan& plan, const LoadHooks& hooks, LoadResult& out) {
    for (std::size_t k = 0; k < plan.links.size(); ++k)
        if (plan.links[k].route != plan.links.front().route)
            throw LoadSpecError("--http3 loads one origin per run: '" + std::string(spec.links.url(k)) + "' and '" +
                                std::string(spec.links.url(0)) + "' differ in address, port or name");
    Http3Shared shared;
    shared.spec = &spec;
    shared.plan = &plan;
    shared.timeout_ns = spec.timeout.count();
    shared.max_requests = spec.max_requests;
    shared.stop = hooks.stop;
    for (std::size_t k = 0; k < plan.links.size(); ++k) shared.fields.push_back(http3_fields(spec, k));
    const auto& ep = plan.origin(plan.links.front()).endpoint;
    shared.quic.remote = asio::ip::udp::endpoint(ep.address(), ep.port());
    shared.quic.handshake_timeout = spec.timeout;
    shared.quic.idle_timeout = std::max<std::chrono::nanoseconds>(spec.timeout, std::chrono::seconds(5));
    shared.quic.cc = quic::parse_congestion_control(spec.http3.congestion_control).value_or(quic::CongestionControl::cubic);
    shared.quic.udp_batching = spec.http3.udp_batching;

    std::vector<std::unique_ptr<Http3Worker>> workers;
    try {
        for (unsigned i = 0; i < spec.threads; ++i)
            workers.push_back(std::make_unique<Http3Worker>(
                shared, spec.connections / spec.threads + (i < spec.connections % spec.threads ? 1 : 0)));
    } catch (const quic::QuicSetupError& e) {
        throw LoadSpecError(std::string("--http3: ") + e.what());
    }
    PassTimes times = run_workers(spec, workers, hooks, false, out);
    quic::UdpIoSummary udp;
    for (const auto& w : workers) udp.merge(w->udp());
    out.udp = std::move(udp);
    for (const auto& w : workers)
        if (!w->first_failure().empty()) {
            out.warnings.push_back("QUIC connection failure: " + w->first_failure());
            break;
        }
    return times;
}

}  // namespace stand::load
