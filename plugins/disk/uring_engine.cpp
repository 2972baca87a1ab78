// disk probe: the io_uring engine, one ring per I/O thread, set up as fio's
// io_uring engine sets up its own: SINGLE_ISSUER|DEFER_TASKRUN (the kernel
// runs completions when the thread waits instead of interrupting it), else
// COOP_TASKRUN, else a plain ring on older kernels.
#include <liburing.h>

#include <cerrno>
#include <vector>

#include "io_engine.hpp"
#include "io_support.hpp"

namespace stand_disk {
namespace {

class UringEngine final : public IoEngine {
public:
    explicit UringEngine(const EngineSetup& setup) : setup_(setup) {
        const unsigned qd = setup.queue_depth;
        int init = io_uring_queue_init(qd, &ring_, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
        if (init == -EINVAL) init = io_uring_queue_init(qd, &ring_, IORING_SETUP_COOP_TASKRUN);
        if (init == -EINVAL) init = io_uring_queue_init(qd, &ring_, 0);
        if (init < 0) fail_errno("io_uring_queue_init(" + std::to_string(qd) + ")", -init);
        iov_.resize(qd);
        for (std::uint32_t i = 0; i < qd; ++i)
            iov_[i] = iovec{static_cast<char*>(setup.buffers) + static_cast<std::size_t>(i) * setup.block_size, setup.block_size};
        // Registered buffers save the per-I/O page pinning; without the
        // memlock allowance the plain read/write ops do the same I/O.
        fixed_ = io_uring_register_buffers(&ring_, iov_.data(), qd) == 0;
    }
    ~UringEngine() override { io_uring_queue_exit(&ring_); }
    UringEngine(const UringEngine&) = delete;
    UringEngine& operator=(const UringEngine&) = delete;

    void queue(std::uint32_t slot, std::uint64_t offset) override {
        io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
        if (sqe == nullptr) throw std::runtime_error("io_uring: no free submission entry");
        void* buf = iov_[slot].iov_base;
        const int fd = setup_.fd;
        const unsigned bs = setup_.block_size;
        const int index = static_cast<int>(slot);
        if (setup_.write) {
            if (fixed_) io_uring_prep_write_fixed(sqe, fd, buf, bs, offset, index);
            else io_uring_prep_write(sqe, fd, buf, bs, offset);
        } else {
            if (fixed_) io_uring_prep_read_fixed(sqe, fd, buf, bs, offset, index);
            else io_uring_prep_read(sqe, fd, buf, bs, offset);
        }
        io_uring_sqe_set_data64(sqe, slot);
    }

    void submit() override {
        int r = io_uring_submit(&ring_);
        while (r == -EINTR) r = io_uring_submit(&ring_);
        if (r < 0) fail_errno("io_uring_submit", -r);
    }

    std::size_t reap(std::size_t min, std::span<Completion> out) override {
        while (io_uring_cq_ready(&ring_) < min) {
            io_uring_cqe* first = nullptr;
            const int r = io_uring_wait_cqe_nr(&ring_, &first, static_cast<unsigned>(min));
            if (r < 0 && r != -EINTR) fail_errno("io_uring_wait_cqe_nr", -r);
        }
        std::size_t n = 0;
        unsigned head = 0;
        io_uring_cqe* cqe = nullptr;
        io_uring_for_each_cqe(&ring_, head, cqe) {
            if (n == out.size()) break;
            out[n++] = Completion{static_cast<std::uint32_t>(io_uring_cqe_get_data64(cqe)), cqe->res};
        }
        io_uring_cq_advance(&ring_, static_cast<unsigned>(n));
        return n;
    }

    bool fixed_buffers() const noexcept override { return fixed_; }

private:
    EngineSetup setup_;
    io_uring ring_{};
    std::vector<iovec> iov_;
    bool fixed_ = false;
};

}  // namespace

std::unique_ptr<IoEngine> make_uring_engine(const EngineSetup& setup) { return std::make_unique<UringEngine>(setup); }

int uring_setup_errno() noexcept {
    io_uring ring{};
    const int r = io_uring_queue_init(1, &ring, 0);
    if (r < 0) return -r;
    io_uring_queue_exit(&ring);
    return 0;
}

}  // namespace stand_disk
