#include "load/load_connection.hpp"

#include "load/client_socket.hpp"
#include "load/exchange.hpp"
#include "load/load_clock.hpp"
#include "load/load_worker.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>

#include <cstring>

#include <unistd.h>

namespace stand::load {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

// 16 KiB per connection, as big as a TLS record: one read per record. The
// parser keeps at most one line of it (kMaxLineBytes) between reads.
constexpr std::size_t kBufferSize = 16384;
static_assert(kMaxLineBytes < kBufferSize);
constexpr std::int64_t kIdleCheckNs = 1'000'000;

}  // namespace

Connection::Connection(Worker& worker)
    : Http1Exchange(worker), worker_(worker), socket_(worker.io()), buffer_(new char[kBufferSize]) {}

Connection::~Connection() { release(); }

void Connection::start(std::uint32_t link, std::int64_t intended_ns, std::int64_t now) {
    link_ = &worker_.shared().plan->links[link];
    intended_ = intended_ns;
    started_ = now;
    deadline_ = now + worker_.shared().timeout_ns;
    pending_.reset();
    retried_ = false;
    busy_ = true;
    attempt();
}

void Connection::attempt() {
    got_bytes_ = false;
    used_ = 0;
    parser_.reset(link_->head);
    if (open_ && route_ == link_->route) {
        reused_ = true;
        // An answer the server sent while the connection idled would be
        // taken for this request's. Checked (one ioctl) only after an idle
        // spell: the closed model reuses a connection at once. (TLS: bytes in
        // the socket may be a close_notify; only decrypted leftovers are
        // checked, in on_read.)
        error_code ec;
        if (!tls_ && started_ - idle_since_ >= kIdleCheckNs && socket_.available(ec) > 0 && !ec)
            return defer_fail(ErrorKind::protocol, kUnsolicitedIdle);
        send();
        return;
    }
    release(true);  // a kept-alive connection to another route: it ended well
    connect();
}

void Connection::connect() {
    reused_ = false;
    connecting_ = true;
    connect_started_ = now_ns();
    if (link_->tls) tls_.emplace(worker_.io(), worker_.shared().tls->context());
    SocketFailure failure{};
    const Plan& plan = *worker_.shared().plan;
    const int fd = open_client_socket(plan, *link_, failure);
    if (fd < 0) return defer_fail(failure.kind, failure.reason);
    Socket& s = socket();
    error_code ec;
    const auto& endpoint = plan.origin(*link_).endpoint;
    s.assign(endpoint.protocol(), fd, ec);
    if (ec) {
        ::close(fd);
        return defer_fail(ErrorKind::other, "cannot open a socket");
    }
    s.async_connect(endpoint, [this](const error_code& e) { on_connect(e); });
}

void Connection::on_connect(const error_code& ec) {
    if (pending_) return fail_in_phase(*pending_);
    if (ec) {
        if (ec == asio::error::connection_refused) return fail_in_phase(ErrorKind::connect_refused);
        if (ec == asio::error::timed_out) return fail_in_phase(ErrorKind::timeout);
        return fail_in_phase(ErrorKind::connect);
    }
    ++worker_.stats().connections_opened;
    if (tls_) {
        worker_.shared().tls->prepare(tls_->native_handle(), worker_.shared().plan->origin(*link_),
                                      worker_.session_slot(link_->route));
        tls_->async_handshake(asio::ssl::stream_base::client, [this](const error_code& e) { on_handshake(e); });
        return;
    }
    connected();
}

void Connection::on_handshake(const error_code& ec) {
    if (pending_) return fail_in_phase(*pending_);
    if (ec) return fail_in_phase(ErrorKind::tls);
    ++worker_.stats().tls_handshakes;
    if (SSL_session_reused(tls_->native_handle()) != 0) ++worker_.stats().tls_resumed;
    connected();
}

void Connection::connected() {
    worker_.stats().connect.record(ns_to_us(now_ns() - connect_started_));
    open_ = true;
    connecting_ = false;
    route_ = link_->route;
    send();
}

void Connection::send() {
    const std::string_view bytes = worker_.shared().plan->request(*link_);
    const auto request = asio::buffer(bytes.data(), bytes.size());
    auto done = [this](const error_code& ec, std::size_t) { on_write(ec); };
    if (tls_) asio::async_write(*tls_, request, std::move(done));
    else asio::async_write(socket_, request, std::move(done));
}

void Connection::on_write(const error_code& ec) {
    if (pending_) return fail_in_phase(*pending_);
    if (ec) return io_error(ec);
    read();
}

void Connection::read() {
    const auto space = asio::buffer(buffer_.get() + used_, kBufferSize - used_);
    auto done = [this](const error_code& ec, std::size_t n) { on_read(ec, n); };
    if (tls_) tls_->async_read_some(space, std::move(done));
    else socket_.async_read_some(space, std::move(done));
}

void Connection::on_read(const error_code& ec, std::size_t n) {
    if (pending_) return fail_in_phase(*pending_);
    if (ec) return io_error(ec);
    got_bytes_ = true;
    worker_.stats().bytes_received += n;
    used_ += n;
    std::size_t consumed = 0;
    switch (feed_response(parser_, buffer_.get(), used_, consumed)) {
    case Fed::done:
        used_ = 0;
        return complete();
    case Fed::unsolicited:
        return fail(ErrorKind::protocol, kUnsolicited);
    case Fed::error:
        return fail(parser_.error_kind(), parser_.error());
    case Fed::need_more:
        break;
    }
    if (consumed == used_) {
        used_ = 0;
    } else if (consumed > 0) {
        std::memmove(buffer_.get(), buffer_.get() + consumed, used_ - consumed);
        used_ -= consumed;
    }
    read();
}

void Connection::io_error(const error_code& ec) {
    StreamEnd how = StreamEnd::other;
    if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) how = StreamEnd::eof;
    else if (ec == asio::error::connection_reset || ec == asio::error::broken_pipe) how = StreamEnd::reset;
    else if (ec == asio::error::timed_out) how = StreamEnd::timed_out;
    else if (ec.category() == asio::error::get_ssl_category() || ec.category() == asio::ssl::error::get_stream_category())
        how = StreamEnd::tls;
    const EndVerdict verdict = end_of_stream(how, parser_, reused_, got_bytes_, retried_);
    switch (verdict.action) {
    case EndVerdict::Action::complete:
        return complete();
    case EndVerdict::Action::retry:
        retried_ = true;
        ++worker_.stats().stale_retries;
        release();
        return attempt();
    case EndVerdict::Action::fail:
        break;
    }
    fail_in_phase(verdict.kind);
}

void Connection::complete() {
    const std::int64_t now = now_ns();
    idle_since_ = now;
    if (!keeps_alive()) release(true);
    end_with_response(now);
}

void Connection::fail_in_phase(ErrorKind kind) { fail(kind, phase_reason(kind, phase())); }

void Connection::fail(ErrorKind kind, const char* reason) {
    const std::int64_t now = now_ns();
    release();
    pending_.reset();
    end_with_error(kind, reason, now);
}

void Connection::defer_fail(ErrorKind kind, const char* reason) {
    // Never complete inside start(): the worker is not ready for re-entry.
    asio::post(worker_.io(), [this, kind, reason] { fail(kind, reason); });
}

void Connection::expire() noexcept {
    pending_ = ErrorKind::timeout;
    deadline_ = INT64_MAX;
    open_ = false;
    error_code ec;
    socket().close(ec);  // the pending operation ends with operation_aborted
}

void Connection::close() noexcept { release(!busy_); }

void Connection::release(bool clean) noexcept {
    open_ = false;
    connecting_ = false;
    error_code ec;
    if (tls_) {
        if (clean) SSL_set_shutdown(tls_->native_handle(), SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
        tls_->next_layer().close(ec);
        tls_.reset();
    } else if (socket_.is_open()) {
        socket_.close(ec);
    }
}

}  // namespace stand::load
