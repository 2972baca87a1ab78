// One HTTP/1.1 client connection of the io_uring engine (uring_worker.hpp):
// connect, send and a multishot receive into the ring's provided buffers,
// each a submission its worker batches with every other connection's into
// one system call per turn of its loop. The same decisions as the Asio
// connection (exchange.hpp: when a response is whole, what a close means,
// the one retry of a stale kept-alive connection); plain TCP only.
//
// Every submission carries the connection's generation: release() starts a
// new one, so the completions of a closed socket are recognised and
// dropped. A response is parsed where the kernel put it; only an incomplete
// line at the end of a buffer is kept (in a buffer made on first need).
#pragma once

#include "load/error_kind.hpp"
#include "load/http1_exchange.hpp"
#include "load/load_dispatch.hpp"
#include "load/load_plan.hpp"
#include "load/response_parser.hpp"

#include <cstdint>
#include <memory>

namespace stand::load {

class UringWorker;

class UringConnection : public Http1Exchange {
public:
    enum class Op : std::uint8_t { connect = 1, receive, send, deferred_fail, cancel, close };

    UringConnection(UringWorker& worker, std::uint32_t index);
    ~UringConnection() override;
    UringConnection(const UringConnection&) = delete;
    UringConnection& operator=(const UringConnection&) = delete;

    void start(std::uint32_t link, std::int64_t intended_ns, std::int64_t now_ns) override;
    void expire() noexcept override;
    void close() noexcept override;

    // The worker's side: the tag of a submission, and a completion of this
    // generation (`data`: the provided buffer's bytes, or null).
    std::uint64_t tag(Op op) const noexcept {
        return (std::uint64_t{index_} << 32) | (std::uint64_t{generation_ & 0xffffff} << 8) | static_cast<std::uint8_t>(op);
    }
    std::uint32_t generation() const noexcept { return generation_ & 0xffffff; }
    void on_completion(Op op, int result, unsigned flags, const char* data);
    // The receive stopped for want of buffers: arm it again (after they came back).
    void rearm_receive();

private:
    void attempt();
    void connect();
    void on_connect(int result);
    void arm_receive();
    void send_request();
    void on_receive(int result, unsigned flags, const char* data);
    void on_bytes(const char* data, std::size_t n);
    bool keep_tail(const char* from, std::size_t n);
    void stream_end(int negative_errno);
    void complete();
    void fail_in_phase(ErrorKind kind);
    void fail(ErrorKind kind, const char* reason);
    void defer_fail(ErrorKind kind, const char* reason);
    void release() noexcept;

    UringWorker& worker_;
    const std::uint32_t index_;
    std::uint32_t generation_ = 0;
    int fd_ = -1;
    std::unique_ptr<char[]> tail_;  // an incomplete line between buffers
    std::size_t tail_used_ = 0;

    const PreparedLink* link_ = nullptr;
    std::int64_t connect_started_ = 0;
    std::uint32_t route_ = UINT32_MAX;  // of the open connection
    ErrorKind deferred_kind_ = ErrorKind::other;
    const char* deferred_reason_ = "";
    bool open_ = false;
    bool receiving_ = false;  // a multishot receive is armed
    bool reused_ = false;
    bool retried_ = false;
    bool stray_ = false;      // bytes arrived while the connection was idle
};

}  // namespace stand::load
