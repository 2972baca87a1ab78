// One load thread's io_uring (Debian's liburing): the submission and
// completion queues and a ring of provided receive buffers that multishot
// receives pick from. Created by the thread that builds the worker, in the
// disabled state, and enabled by the thread that runs it (the single issuer,
// with task work deferred to its waits: no interrupts of the load thread).
#pragma once

#include <liburing.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace stand::load {

// The kernel (or a seccomp filter) refused io_uring or a feature it needs.
class UringRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class UringRing {
public:
    static constexpr unsigned kBufferBytes = 4096;
    static constexpr std::uint16_t kBufferGroup = 0;

    // Queues sized for `connections`; throws UringRefused naming the call.
    explicit UringRing(unsigned connections);
    ~UringRing();
    UringRing(const UringRing&) = delete;
    UringRing& operator=(const UringRing&) = delete;

    // In the thread that submits from now on.
    void enable();
    // A free submission entry (submits the queued ones when the queue is full).
    io_uring_sqe* sqe();
    // Submits what is queued and waits until a completion arrives or
    // `timeout_ns` pass; false when the wait failed otherwise than by time.
    bool submit_and_wait(std::int64_t timeout_ns);
    // Submits what is queued without waiting (at the end of a run: the
    // closes of the last connections).
    void submit() noexcept { io_uring_submit(&ring_); }
    io_uring* raw() noexcept { return &ring_; }

    const char* buffer(std::uint16_t id) const noexcept { return buffers_.get() + std::size_t{id} * kBufferBytes; }
    // Gives a buffer a completion carried back to the kernel (visible after commit()).
    void recycle(std::uint16_t id) noexcept;
    void commit() noexcept;

    // Why io_uring cannot carry the load here, or empty when it can (a test
    // ring with the same setup, made once per process).
    static const std::string& refusal();

private:
    io_uring ring_{};
    io_uring_buf_ring* buf_ring_ = nullptr;
    std::size_t buf_ring_bytes_ = 0;
    std::unique_ptr<char[]> buffers_;
    unsigned buffer_count_ = 0;
    int recycled_ = 0;
};

}  // namespace stand::load
