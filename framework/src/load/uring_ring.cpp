#include "load/uring_ring.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#include <sys/mman.h>

namespace stand::load {

namespace {

[[noreturn]] void refuse(const char* call, int negative_errno) {
    throw UringRefused(std::string(call) + ": " + std::strerror(-negative_errno));
}

unsigned power_of_two_within(unsigned want, unsigned low, unsigned high) {
    return std::bit_ceil(std::clamp(want, low, high));
}

}  // namespace

UringRing::UringRing(unsigned connections) {
    io_uring_params params{};
    // Deferred task work runs only when the thread waits; one thread submits.
    params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED |
                   IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CQSIZE;
    const unsigned entries = power_of_two_within(connections * 4, 64, 4096);
    params.cq_entries = entries * 4;
    if (int r = io_uring_queue_init_params(entries, &ring_, &params); r < 0) refuse("io_uring_setup", r);

    // Two buffers a connection, at least 16: a panel run's 4 connections a thread touch 64 KiB, not 256.
    buffer_count_ = power_of_two_within(connections * 2, 16, 16384);
    buf_ring_bytes_ = std::size_t{buffer_count_} * sizeof(io_uring_buf);
    void* mem = ::mmap(nullptr, buf_ring_bytes_, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
    if (mem == MAP_FAILED) {
        io_uring_queue_exit(&ring_);
        refuse("mmap of the buffer ring", -errno);
    }
    buf_ring_ = static_cast<io_uring_buf_ring*>(mem);
    io_uring_buf_ring_init(buf_ring_);
    io_uring_buf_reg reg{};
    reg.ring_addr = reinterpret_cast<std::uint64_t>(buf_ring_);
    reg.ring_entries = buffer_count_;
    reg.bgid = kBufferGroup;
    if (int r = io_uring_register_buf_ring(&ring_, &reg, 0); r < 0) {
        ::munmap(buf_ring_, buf_ring_bytes_);
        io_uring_queue_exit(&ring_);
        refuse("io_uring_register_buf_ring", r);
    }
    buffers_.reset(new char[std::size_t{buffer_count_} * kBufferBytes]);
    for (unsigned i = 0; i < buffer_count_; ++i) recycle(static_cast<std::uint16_t>(i));
    commit();
}

UringRing::~UringRing() {
    io_uring_queue_exit(&ring_);
    if (buf_ring_ != nullptr) ::munmap(buf_ring_, buf_ring_bytes_);
}

void UringRing::enable() {
    // liburing 2.3 declares io_uring_enable_rings but does not export it.
    if (int r = io_uring_register(ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0); r < 0)
        refuse("io_uring_register(ENABLE_RINGS)", r);
    io_uring_register_ring_fd(&ring_);  // fewer file look-ups per wait; optional
}

io_uring_sqe* UringRing::sqe() {
    io_uring_sqe* s = io_uring_get_sqe(&ring_);
    while (s == nullptr) {
        io_uring_submit(&ring_);
        s = io_uring_get_sqe(&ring_);
    }
    return s;
}

bool UringRing::submit_and_wait(std::int64_t timeout_ns) {
    __kernel_timespec ts{};
    ts.tv_sec = timeout_ns / 1'000'000'000;
    ts.tv_nsec = timeout_ns % 1'000'000'000;
    io_uring_cqe* cqe = nullptr;
    const int r = io_uring_submit_and_wait_timeout(&ring_, &cqe, 1, &ts, nullptr);
    return r >= 0 || r == -ETIME || r == -EINTR || r == -EAGAIN || r == -EBUSY;
}

void UringRing::recycle(std::uint16_t id) noexcept {
    io_uring_buf_ring_add(buf_ring_, buffers_.get() + std::size_t{id} * kBufferBytes, kBufferBytes, id,
                          io_uring_buf_ring_mask(buffer_count_), recycled_++);
}

void UringRing::commit() noexcept {
    if (recycled_ == 0) return;
    io_uring_buf_ring_advance(buf_ring_, recycled_);
    recycled_ = 0;
}

const std::string& UringRing::refusal() {
    static const std::string why = [] {
        try {
            UringRing probe(1);
            probe.enable();
            return std::string();
        } catch (const UringRefused& e) {
            return std::string(e.what());
        }
    }();
    return why;
}

}  // namespace stand::load
