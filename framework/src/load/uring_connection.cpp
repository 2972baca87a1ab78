#include "load/uring_connection.hpp"

#include "load/client_socket.hpp"
#include "load/exchange.hpp"
#include "load/load_clock.hpp"
#include "load/uring_worker.hpp"

#include <cerrno>
#include <cstring>

#include <sys/socket.h>
#include <unistd.h>

namespace stand::load {

namespace {

// Room for the longest line the parser keeps (kMaxLineBytes) and a buffer's
// worth after it.
constexpr std::size_t kTailBytes = kMaxLineBytes + UringRing::kBufferBytes;

}  // namespace

UringConnection::UringConnection(UringWorker& worker, std::uint32_t index)
    : Http1Exchange(worker), worker_(worker), index_(index) {}

UringConnection::~UringConnection() {
    if (fd_ >= 0) ::close(fd_);  // the ring's teardown cancels what is still pending on it
}

void UringConnection::start(std::uint32_t link, std::int64_t intended_ns, std::int64_t now) {
    link_ = &worker_.shared().plan->links[link];
    intended_ = intended_ns;
    started_ = now;
    deadline_ = now + worker_.shared().timeout_ns;
    retried_ = false;
    busy_ = true;
    attempt();
}

void UringConnection::attempt() {
    got_bytes_ = false;
    tail_used_ = 0;
    parser_.reset(link_->head);
    if (open_ && route_ == link_->route) {
        reused_ = true;
        // An answer the server sent while the connection idled would be taken
        // for this request's: the receive saw it arrive.
        if (stray_) return defer_fail(ErrorKind::protocol, kUnsolicitedIdle);
        send_request();
        return;
    }
    release();
    connect();
}

void UringConnection::connect() {
    reused_ = false;
    connecting_ = true;
    connect_started_ = now_ns();
    SocketFailure failure{};
    const Plan& plan = *worker_.shared().plan;
    fd_ = open_client_socket(plan, *link_, failure);
    if (fd_ < 0) return defer_fail(failure.kind, failure.reason);
    io_uring_sqe* s = worker_.sqe();
    const auto& endpoint = plan.origin(*link_).endpoint;  // the plan outlives the ring's use of it
    io_uring_prep_connect(s, fd_, endpoint.data(), static_cast<socklen_t>(endpoint.size()));
    io_uring_sqe_set_data64(s, tag(Op::connect));
}

void UringConnection::on_connect(int result) {
    if (result < 0) {
        if (result == -ECONNREFUSED) return fail_in_phase(ErrorKind::connect_refused);
        if (result == -ETIMEDOUT) return fail_in_phase(ErrorKind::timeout);
        return fail_in_phase(ErrorKind::connect);
    }
    ++worker_.stats().connections_opened;
    worker_.stats().connect.record(ns_to_us(now_ns() - connect_started_));
    open_ = true;
    connecting_ = false;
    route_ = link_->route;
    arm_receive();
    send_request();
}

void UringConnection::arm_receive() {
    if (receiving_ || fd_ < 0) return;
    io_uring_sqe* s = worker_.sqe();
    io_uring_prep_recv_multishot(s, fd_, nullptr, 0, 0);
    s->flags |= IOSQE_BUFFER_SELECT;
    s->buf_group = UringRing::kBufferGroup;
    io_uring_sqe_set_data64(s, tag(Op::receive));
    receiving_ = true;
}

void UringConnection::rearm_receive() {
    if (open_) arm_receive();
}

void UringConnection::send_request() {
    // MSG_WAITALL: the ring sends it all or fails; only a failure completes.
    io_uring_sqe* s = worker_.sqe();
    const std::string_view request = worker_.shared().plan->request(*link_);
    io_uring_prep_send(s, fd_, request.data(), request.size(), MSG_WAITALL | MSG_NOSIGNAL);
    s->flags |= IOSQE_CQE_SKIP_SUCCESS;
    io_uring_sqe_set_data64(s, tag(Op::send));
}

void UringConnection::on_completion(Op op, int result, unsigned flags, const char* data) {
    switch (op) {
    case Op::connect: return on_connect(result);
    case Op::receive: return on_receive(result, flags, data);
    case Op::send:
        if (result < 0 && busy_) stream_end(result);
        return;
    case Op::deferred_fail: return fail(deferred_kind_, deferred_reason_);
    case Op::cancel:
    case Op::close: return;
    }
}

void UringConnection::on_receive(int result, unsigned flags, const char* data) {
    if ((flags & IORING_CQE_F_MORE) == 0) receiving_ = false;
    if (result == -ENOBUFS) return worker_.rearm_later(*this);  // the bytes wait in the socket
    if (result <= 0) {
        // The peer closed or reset: the end of a request, or of an idle connection.
        if (busy_) return stream_end(result);
        return release();
    }
    worker_.stats().bytes_received += static_cast<std::uint64_t>(result);
    if (!busy_) {
        stray_ = true;
    } else {
        got_bytes_ = true;
        on_bytes(data, static_cast<std::size_t>(result));
    }
    if (!receiving_) rearm_receive();
}

void UringConnection::on_bytes(const char* data, std::size_t n) {
    for (;;) {
        const char* from = data;
        std::size_t len = n;
        n = 0;
        if (tail_used_ > 0) {
            const std::size_t take = std::min(len, kTailBytes - tail_used_);
            std::memcpy(tail_.get() + tail_used_, data, take);
            tail_used_ += take;
            data += take;
            n = len - take;
            from = tail_.get();
            len = tail_used_;
        }
        std::size_t consumed = 0;
        switch (feed_response(parser_, from, len, consumed)) {
        case Fed::done:
            if (n > 0) return fail(ErrorKind::protocol, kUnsolicited);
            tail_used_ = 0;
            return complete();
        case Fed::unsolicited: return fail(ErrorKind::protocol, kUnsolicited);
        case Fed::error: return fail(parser_.error_kind(), parser_.error());
        case Fed::need_more: break;
        }
        if (!keep_tail(from + consumed, len - consumed)) return fail(ErrorKind::parse, "a line longer than the parser keeps");
        if (n == 0) return;
    }
}

bool UringConnection::keep_tail(const char* from, std::size_t n) {
    if (n == 0) {
        tail_used_ = 0;
        return true;
    }
    if (!tail_) tail_.reset(new char[kTailBytes]);
    if (from == tail_.get() && n == tail_used_) return n < kTailBytes;  // nothing was consumed
    std::memmove(tail_.get(), from, n);
    tail_used_ = n;
    return true;
}

void UringConnection::stream_end(int negative_errno) {
    StreamEnd how = StreamEnd::other;
    if (negative_errno == 0) how = StreamEnd::eof;
    else if (negative_errno == -ECONNRESET || negative_errno == -EPIPE) how = StreamEnd::reset;
    else if (negative_errno == -ETIMEDOUT) how = StreamEnd::timed_out;
    const EndVerdict verdict = end_of_stream(how, parser_, reused_, got_bytes_, retried_);
    switch (verdict.action) {
    case EndVerdict::Action::complete: return complete();
    case EndVerdict::Action::retry:
        retried_ = true;
        ++worker_.stats().stale_retries;
        release();
        return attempt();
    case EndVerdict::Action::fail: break;
    }
    fail_in_phase(verdict.kind);
}

void UringConnection::complete() {
    const std::int64_t now = now_ns();  // before the close: the response's time is not the close's
    if (!keeps_alive()) release();
    end_with_response(now);
}

void UringConnection::fail_in_phase(ErrorKind kind) { fail(kind, phase_reason(kind, phase())); }

void UringConnection::fail(ErrorKind kind, const char* reason) {
    const std::int64_t now = now_ns();
    release();
    end_with_error(kind, reason, now);
}

void UringConnection::defer_fail(ErrorKind kind, const char* reason) {
    // Never complete inside start(): the dispatcher is not ready for re-entry.
    deferred_kind_ = kind;
    deferred_reason_ = reason;
    io_uring_sqe* s = worker_.sqe();
    io_uring_prep_nop(s);
    io_uring_sqe_set_data64(s, tag(Op::deferred_fail));
}

void UringConnection::expire() noexcept {
    const char* reason = phase_reason(ErrorKind::timeout, phase());
    deadline_ = INT64_MAX;
    release();  // what is pending on the old socket is dropped
    defer_fail(ErrorKind::timeout, reason);
}

void UringConnection::close() noexcept { release(); }

void UringConnection::release() noexcept {
    if (fd_ >= 0) {
        if (receiving_) {
            io_uring_sqe* c = worker_.sqe();
            io_uring_prep_cancel64(c, tag(Op::receive), 0);
            c->flags |= IOSQE_CQE_SKIP_SUCCESS;
            io_uring_sqe_set_data64(c, tag(Op::cancel));
        }
        io_uring_sqe* s = worker_.sqe();
        io_uring_prep_close(s, fd_);
        s->flags |= IOSQE_CQE_SKIP_SUCCESS;
        io_uring_sqe_set_data64(s, tag(Op::close));
        fd_ = -1;
    }
    ++generation_;
    receiving_ = false;
    open_ = false;
    connecting_ = false;
    stray_ = false;
}

}  // namespace stand::load
