// disk probe: the test directory check, the test file, and a job's run:
// spec.jobs I/O threads (io_worker.cpp) watched by the calling thread.
#include "disk_engine.hpp"

#include "io_support.hpp"
#include "io_worker.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace stand_disk {
namespace {


}  // namespace

bool fill_file(const std::string& path, std::uint64_t size, const std::function<bool()>& cancelled,
               const std::function<void(double)>& progress) {
    Fd f;
    f.fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
    if (f.fd < 0) {
        int e = errno;
        if (e == EINVAL) throw std::runtime_error("open(" + path + ", O_DIRECT): the file system does not support direct I/O");
        fail_errno("open(" + path + ", O_DIRECT)", e);
    }
    if (::posix_fallocate(f.fd, 0, static_cast<off_t>(size)) != 0) {
        // Not every file system allocates ahead (EOPNOTSUPP); the full write below still does.
    }
    constexpr std::size_t chunk = 1 << 20;
    AlignedBuffer buf(chunk);
    Rng rng(now_ns());
    std::uint64_t done = 0;
    std::uint64_t last_report = now_ns();
    while (done < size) {
        if (cancelled()) return false;
        std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, size - done));
        fill_random(buf.p, n, rng);
        ssize_t w = ::pwrite(f.fd, buf.p, n, static_cast<off_t>(done));
        if (w < 0) {
            if (errno == EINTR) continue;
            fail_errno("pwrite(" + path + ")", errno);
        }
        if (w == 0) throw std::runtime_error("pwrite(" + path + ") wrote nothing");
        done += static_cast<std::uint64_t>(w);
        if (std::uint64_t t = now_ns(); t - last_report > 250'000'000ull) {
            progress(static_cast<double>(done) / static_cast<double>(size));
            last_report = t;
        }
    }
    if (::fdatasync(f.fd) != 0) fail_errno("fdatasync(" + path + ")", errno);
    return true;
}

void check_fully_written(const std::string& path, std::uint64_t size) {
    Fd f;
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f.fd < 0) fail_errno("open(" + path + ")", errno);
    struct stat st{};
    if (::fstat(f.fd, &st) != 0) fail_errno("fstat(" + path + ")", errno);
    if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + " is not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) < size)
        throw std::runtime_error(path + " has " + std::to_string(st.st_size) + " bytes, fewer than the " +
                                 std::to_string(size) + " to measure");
    const off_t hole = ::lseek(f.fd, 0, SEEK_HOLE);
    if (hole < 0) fail_errno("lseek(" + path + ", SEEK_HOLE)", errno);
    if (static_cast<std::uint64_t>(hole) < size)
        throw std::runtime_error(path + " has a hole at byte " + std::to_string(hole) +
                                 ": it was not written in full, so reads would not touch the disk");
}

EngineResult run_engine(const EngineSpec& spec, const std::function<bool()>& cancelled,
                        const std::function<void(double)>& progress, bool& was_cancelled) {
    was_cancelled = false;
    if (spec.block_size == 0 || spec.file_size < spec.block_size)
        throw std::runtime_error("the file (" + std::to_string(spec.file_size) + " bytes) is smaller than one block");
    std::atomic<bool> stop{false};
    std::vector<ThreadResult> results(spec.jobs);
    std::vector<std::string> errors(spec.jobs);
    std::vector<std::thread> threads;
    threads.reserve(spec.jobs);
    const std::uint64_t t0 = now_ns();
    try {
        for (unsigned i = 0; i < spec.jobs; ++i)
            threads.emplace_back([&, i] {
                try {
                    run_io_thread(spec, i, stop, results[i]);
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
                stop.store(true);  // one failing thread ends the others
            });
    } catch (...) {
        stop.store(true);
        for (auto& t : threads) t.join();
        throw;
    }
    // The calling thread only watches: cancellation, a failed thread, progress.
    // The I/O threads stop at their own deadline and drain what is in flight.
    while (!stop.load()) {
        const std::uint64_t elapsed = now_ns() - t0;
        if (elapsed >= spec.duration_ns) break;
        progress(static_cast<double>(elapsed) / static_cast<double>(spec.duration_ns));
        std::this_thread::sleep_for(std::chrono::nanoseconds(static_cast<std::int64_t>(std::min<std::uint64_t>(50'000'000ull, spec.duration_ns - elapsed))));
        if (cancelled()) {
            was_cancelled = true;
            stop.store(true);
        }
    }
    for (auto& t : threads) t.join();

    EngineResult res;
    std::uint64_t first = UINT64_MAX, last = 0;
    res.fixed_buffers = true;
    for (unsigned i = 0; i < spec.jobs; ++i) {
        if (!errors[i].empty()) throw std::runtime_error(errors[i]);
        const ThreadResult& r = results[i];
        res.ios += r.ios;
        res.bytes += r.bytes;
        res.cpu_s += r.cpu_s;
        res.fixed_buffers = res.fixed_buffers && r.fixed_buffers;
        res.latency.add(r.latency);
        first = std::min(first, r.start_ns);
        last = std::max(last, r.end_ns);
    }
    if (was_cancelled) return EngineResult{};
    res.seconds = last > first ? static_cast<double>(last - first) / 1e9 : 0;
    return res;
}

}  // namespace stand_disk
