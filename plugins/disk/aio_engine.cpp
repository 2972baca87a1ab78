// disk probe: the libaio engine (Linux native AIO: io_submit/io_getevents),
// the fallback where io_uring is unavailable. One context per I/O thread.
#include <libaio.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "io_engine.hpp"
#include "io_support.hpp"

namespace stand_disk {
namespace {

class AioEngine final : public IoEngine {
public:
    explicit AioEngine(const EngineSetup& setup)
        : setup_(setup), iocbs_(setup.queue_depth), events_(setup.queue_depth) {
        pending_.reserve(setup.queue_depth);
        const int r = io_setup(static_cast<int>(setup.queue_depth), &ctx_);
        if (r < 0) fail_errno("io_setup(" + std::to_string(setup.queue_depth) + ")", -r);
    }
    // io_destroy waits for the I/Os still in flight, so the buffers stay valid.
    ~AioEngine() override { io_destroy(ctx_); }
    AioEngine(const AioEngine&) = delete;
    AioEngine& operator=(const AioEngine&) = delete;

    void queue(std::uint32_t slot, std::uint64_t offset) override {
        iocb& cb = iocbs_[slot];
        void* buf = static_cast<char*>(setup_.buffers) + static_cast<std::size_t>(slot) * setup_.block_size;
        const auto off = static_cast<long long>(offset);
        if (setup_.write) io_prep_pwrite(&cb, setup_.fd, buf, setup_.block_size, off);
        else io_prep_pread(&cb, setup_.fd, buf, setup_.block_size, off);
        pending_.push_back(&cb);
    }

    void submit() override {
        std::size_t done = 0;
        while (done < pending_.size()) {
            const int r = io_submit(ctx_, static_cast<long>(pending_.size() - done), pending_.data() + done);
            if (r == -EINTR) continue;
            if (r < 0) fail_errno("io_submit", -r);
            if (r == 0) throw std::runtime_error("io_submit accepted none of " + std::to_string(pending_.size() - done) + " I/Os");
            done += static_cast<std::size_t>(r);
        }
        pending_.clear();
    }

    std::size_t reap(std::size_t min, std::span<Completion> out) override {
        const auto max = static_cast<long>(std::min(out.size(), events_.size()));
        int r = 0;
        do {
            r = io_getevents(ctx_, static_cast<long>(min), max, events_.data(), nullptr);
        } while (r == -EINTR);
        if (r < 0) fail_errno("io_getevents", -r);
        for (int i = 0; i < r; ++i) {
            const io_event& ev = events_[static_cast<std::size_t>(i)];
            const auto slot = static_cast<std::uint32_t>(ev.obj - iocbs_.data());
            // res is the byte count or -errno in an unsigned long.
            out[static_cast<std::size_t>(i)] = Completion{slot, static_cast<std::int32_t>(static_cast<long>(ev.res))};
        }
        return static_cast<std::size_t>(r);
    }

    bool fixed_buffers() const noexcept override { return false; }

private:
    EngineSetup setup_;
    io_context_t ctx_{};
    std::vector<iocb> iocbs_;
    std::vector<iocb*> pending_;
    std::vector<io_event> events_;
};

}  // namespace

std::unique_ptr<IoEngine> make_aio_engine(const EngineSetup& setup) { return std::make_unique<AioEngine>(setup); }

}  // namespace stand_disk
