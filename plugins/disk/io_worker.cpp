// disk probe: one I/O thread's loop. Every I/O is handed to the kernel as
// soon as its slot is free, one submission each, as fio does by default
// (iodepth_batch_submit=1): a virtio disk starts on it while the thread still
// reaps the others. Batching the refills into one submission per wait made
// the device idle between batches (see README, "Against fio").
#include "io_worker.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io_engine.hpp"
#include "io_support.hpp"

namespace stand_disk {

void run_io_thread(const EngineSpec& spec, unsigned index, const std::atomic<bool>& stop, ThreadResult& out) {
    const std::uint32_t bs = spec.block_size;
    const std::uint32_t qd = spec.queue_depth;
    Fd f(::open(spec.path.c_str(), (spec.write ? O_WRONLY : O_RDONLY) | (spec.direct ? O_DIRECT : 0) | O_CLOEXEC));
    if (f.fd < 0) fail_errno("open(" + spec.path + (spec.direct ? ", O_DIRECT)" : ")"), errno);

    AlignedBuffer buffers(static_cast<std::size_t>(bs) * qd);  // declared first: outlives the engine
    Rng rng(0x5EED0000ull + index * 7919ull + now_ns());
    if (spec.write) fill_random(buffers.p, static_cast<std::size_t>(bs) * qd, rng);
    auto engine = make_engine(spec.engine, EngineSetup{f.fd, buffers.p, bs, qd, spec.write});
    out.fixed_buffers = engine->fixed_buffers();

    const std::uint64_t blocks = spec.file_size / bs;
    const std::uint64_t slice = std::max<std::uint64_t>(1, blocks / spec.jobs);
    const std::uint64_t slice_start = spec.random ? 0 : std::min<std::uint64_t>(blocks - 1, slice * index);
    const std::uint64_t slice_len = spec.random ? blocks : std::min<std::uint64_t>(slice, blocks - slice_start);
    std::uint64_t seq = 0;
    auto next_offset = [&]() -> std::uint64_t {
        std::uint64_t b;
        if (spec.random) {
            b = rng.next() % blocks;
        } else {
            b = slice_start + seq;
            if (++seq == slice_len) seq = 0;
        }
        return b * bs;
    };

    std::string io_error;
    std::vector<std::uint64_t> issued(qd, 0);
    std::uint32_t inflight = 0;
    auto issue = [&](std::uint32_t slot) {
        try {
            issued[slot] = now_ns();
            engine->queue(slot, next_offset());
            engine->submit();
            ++inflight;
        } catch (const std::exception& e) {
            if (io_error.empty()) io_error = e.what();  // stop issuing; what is in flight is drained below
        }
    };

    const double cpu0 = thread_cpu_s();
    out.start_ns = now_ns();
    const std::uint64_t deadline = out.start_ns + spec.duration_ns;
    for (std::uint32_t slot = 0; slot < qd && io_error.empty(); ++slot) issue(slot);
    std::vector<Completion> done(qd);
    const char* op = spec.write ? "write" : "read";
    while (inflight > 0) {
        const std::size_t n = engine->reap(1, done);
        const std::uint64_t t = now_ns();
        const bool more = io_error.empty() && t < deadline && !stop.load(std::memory_order_relaxed);
        for (std::size_t i = 0; i < n; ++i) {
            --inflight;
            const Completion c = done[i];
            if (c.result != static_cast<std::int32_t>(bs)) {
                if (io_error.empty())
                    io_error = c.result < 0 ? std::string(op) + ": " + std::strerror(-c.result)
                                            : "short " + std::string(op) + " of " + std::to_string(c.result) + " of " +
                                                  std::to_string(bs) + " bytes";
                continue;
            }
            out.latency.record(t - issued[c.slot]);
            ++out.ios;
            if (more && io_error.empty()) issue(c.slot);
        }
    }
    out.bytes = out.ios * bs;
    out.end_ns = now_ns();
    out.cpu_s = thread_cpu_s() - cpu0;
    if (!io_error.empty()) throw std::runtime_error(spec.path + ": " + io_error);
}

}  // namespace stand_disk
