// disk probe: io_uring engine. Each I/O thread opens the test file with
// O_DIRECT, keeps queue_depth I/Os in flight on its own ring and times every
// I/O from submission to the reaping of its completion with CLOCK_MONOTONIC
// (the clock the host's stand.clock/1 uses; called directly here because it
// is read twice per I/O on the I/O threads).
#include "disk_engine.hpp"

#include <liburing.h>

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace stand_disk {
namespace {

std::uint64_t now_ns() noexcept {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

double thread_cpu_s() noexcept {
    rusage ru{};
    ::getrusage(RUSAGE_THREAD, &ru);
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return secs(ru.ru_utime) + secs(ru.ru_stime);
}

[[noreturn]] void fail_errno(const std::string& what, int err) {
    throw std::runtime_error(what + ": " + std::strerror(err));
}

// xorshift64*: fast, good enough for offsets and incompressible fill.
struct Rng {
    std::uint64_t s;
    explicit Rng(std::uint64_t seed) : s(seed ? seed : 0x9E3779B97F4A7C15ull) {}
    std::uint64_t next() noexcept {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
};

void fill_random(void* buf, std::size_t bytes, Rng& rng) noexcept {
    auto* p = static_cast<std::uint64_t*>(buf);
    for (std::size_t i = 0; i < bytes / 8; ++i) p[i] = rng.next();
}

struct AlignedBuffer {
    void* p = nullptr;
    explicit AlignedBuffer(std::size_t bytes) {
        std::size_t rounded = (bytes + 4095) / 4096 * 4096;
        p = std::aligned_alloc(4096, rounded);
        if (p == nullptr) throw std::runtime_error("aligned_alloc of " + std::to_string(rounded) + " bytes failed");
    }
    ~AlignedBuffer() { std::free(p); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
};

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::string fs_name(std::uint64_t magic) {
    switch (magic) {
    case EXT4_SUPER_MAGIC: return "ext2/3/4";
    case XFS_SUPER_MAGIC: return "xfs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    case OVERLAYFS_SUPER_MAGIC: return "overlay";
    case NFS_SUPER_MAGIC: return "nfs";
    case F2FS_SUPER_MAGIC: return "f2fs";
    default: {
        std::ostringstream s;
        s << "0x" << std::hex << magic;
        return s.str();
    }
    }
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size()) {
            int v = (s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0');
            out.push_back(static_cast<char>(v));
            i += 3;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

bool under(const std::string& path, const std::string& mount) {
    if (mount == "/") return true;
    return path.compare(0, mount.size(), mount) == 0 && (path.size() == mount.size() || path[mount.size()] == '/');
}

}  // namespace

MountInfo mount_of(const std::string& dir) {
    MountInfo info;
    struct statfs sf{};
    if (::statfs(dir.c_str(), &sf) != 0) fail_errno("statfs(" + dir + ")", errno);
    struct stat st{};
    if (::stat(dir.c_str(), &st) != 0) fail_errno("stat(" + dir + ")", errno);
    if (!S_ISDIR(st.st_mode)) throw std::runtime_error(dir + " is not a directory");
    info.f_type = static_cast<std::uint64_t>(sf.f_type);
    info.free_bytes = static_cast<std::uint64_t>(sf.f_bavail) * static_cast<std::uint64_t>(sf.f_bsize);
    info.ram_backed = info.f_type == TMPFS_MAGIC || info.f_type == RAMFS_MAGIC;
    info.fs_type = fs_name(info.f_type);

    char* real = ::realpath(dir.c_str(), nullptr);
    std::string path = real ? real : dir;
    std::free(real);
    // The longest mount point above `path` whose device is the directory's.
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    std::size_t best = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string id, parent, devno, root, mp;
        fields >> id >> parent >> devno >> root >> mp;
        std::string tok;
        while (fields >> tok && tok != "-") {
        }
        std::string type, source;
        fields >> type >> source;
        mp = unescape(mp);
        unsigned maj = 0, min = 0;
        if (std::sscanf(devno.c_str(), "%u:%u", &maj, &min) != 2) continue;
        if (makedev(maj, min) != st.st_dev) continue;
        if (!under(path, mp) || mp.size() < best) continue;
        best = mp.size();
        info.mount_point = mp;
        info.fs_type = type;
        info.source = source;
    }
    return info;
}

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

namespace {

struct Worker {
    EngineSpec spec;
    unsigned index = 0;
    std::atomic<bool>* stop = nullptr;
    // results
    std::uint64_t ios = 0;
    std::uint64_t bytes = 0;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    double cpu_s = 0;
    bool fixed = true;
    std::string error;
    LatencyHistogram latency;

    void run() noexcept {
        try {
            body();
        } catch (const std::exception& e) {
            error = e.what();
        }
        stop->store(true);  // one failing thread ends the others
    }

    void body() {
        const std::uint32_t bs = spec.block_size;
        const std::uint32_t qd = spec.queue_depth;
        Fd f;
        f.fd = ::open(spec.path.c_str(), (spec.write ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
        if (f.fd < 0) fail_errno("open(" + spec.path + ", O_DIRECT)", errno);

        // Declared before the ring so that they outlive it.
        AlignedBuffer buffers(static_cast<std::size_t>(bs) * qd);
        io_uring ring{};
        // One thread submits and reaps: completions are run when it waits
        // (DEFER_TASKRUN) instead of interrupting it; older kernels refuse the
        // flags with EINVAL and get a plain ring.
        int init = io_uring_queue_init(qd, &ring, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
        if (init == -EINVAL) init = io_uring_queue_init(qd, &ring, IORING_SETUP_COOP_TASKRUN);
        if (init == -EINVAL) init = io_uring_queue_init(qd, &ring, 0);
        if (init < 0) fail_errno("io_uring_queue_init(" + std::to_string(qd) + ")", -init);
        struct RingGuard {
            io_uring* r;
            ~RingGuard() { io_uring_queue_exit(r); }
        } guard{&ring};

        Rng rng(0x5EED0000ull + index * 7919ull + now_ns());
        if (spec.write) fill_random(buffers.p, static_cast<std::size_t>(bs) * qd, rng);
        std::vector<iovec> iov(qd);
        for (std::uint32_t i = 0; i < qd; ++i)
            iov[i] = iovec{static_cast<char*>(buffers.p) + static_cast<std::size_t>(i) * bs, bs};
        // Registered buffers save the per-I/O page pinning; without the
        // memlock allowance the plain read/write ops do the same I/O.
        fixed = io_uring_register_buffers(&ring, iov.data(), qd) == 0;

        const std::uint64_t blocks = spec.file_size / bs;
        // Sequential threads each stream through their own slice of the file.
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

        std::vector<std::uint64_t> issued(qd, 0);
        auto prep = [&](std::uint32_t slot, std::uint64_t t) {
            io_uring_sqe* sqe = io_uring_get_sqe(&ring);
            if (sqe == nullptr) throw std::runtime_error("io_uring: no free submission entry");
            void* buf = iov[slot].iov_base;
            auto off = next_offset();
            if (spec.write) {
                if (fixed) io_uring_prep_write_fixed(sqe, f.fd, buf, bs, off, static_cast<int>(slot));
                else io_uring_prep_write(sqe, f.fd, buf, bs, off);
            } else {
                if (fixed) io_uring_prep_read_fixed(sqe, f.fd, buf, bs, off, static_cast<int>(slot));
                else io_uring_prep_read(sqe, f.fd, buf, bs, off);
            }
            io_uring_sqe_set_data64(sqe, slot);
            issued[slot] = t;
            // Each I/O goes to the kernel at once, as fio does by default
            // (iodepth_batch_submit=1): a virtio disk starts on it while the
            // thread still reaps the others, instead of idling until a whole
            // batch arrives with one notification.
            if (int s = io_uring_submit(&ring); s < 0) fail_errno("io_uring_submit", -s);
        };

        const double cpu0 = thread_cpu_s();
        start_ns = now_ns();
        const std::uint64_t deadline = start_ns + spec.duration_ns;
        for (std::uint32_t i = 0; i < qd; ++i) prep(i, now_ns());
        std::uint32_t inflight = qd;
        std::string io_error;
        while (inflight > 0) {
            if (io_uring_cq_ready(&ring) == 0) {
                io_uring_cqe* first = nullptr;
                int r = io_uring_wait_cqe(&ring, &first);
                if (r < 0 && r != -EINTR) {
                    if (io_error.empty()) io_error = std::string("io_uring_wait_cqe: ") + std::strerror(-r);
                    break;  // the ring is unusable; queue_exit reaps the rest
                }
            }
            const std::uint64_t t = now_ns();
            const bool more = io_error.empty() && t < deadline && !stop->load(std::memory_order_relaxed);
            unsigned head = 0;
            unsigned seen = 0;
            io_uring_cqe* cqe = nullptr;
            io_uring_for_each_cqe(&ring, head, cqe) {
                ++seen;
                --inflight;
                const auto slot = static_cast<std::uint32_t>(io_uring_cqe_get_data64(cqe));
                if (cqe->res != static_cast<std::int32_t>(bs)) {
                    if (io_error.empty())
                        io_error = cqe->res < 0 ? std::string(spec.write ? "write: " : "read: ") + std::strerror(-cqe->res)
                                                : "short " + std::string(spec.write ? "write" : "read") + " of " +
                                                      std::to_string(cqe->res) + " of " + std::to_string(bs) + " bytes";
                    continue;
                }
                latency.record(t - issued[slot]);
                ++ios;
                if (more) {
                    prep(slot, now_ns());
                    ++inflight;
                }
            }
            io_uring_cq_advance(&ring, seen);
            bytes = ios * bs;
        }
        end_ns = now_ns();
        cpu_s = thread_cpu_s() - cpu0;
        if (!io_error.empty()) throw std::runtime_error(spec.path + ": " + io_error);
    }
};

}  // namespace

EngineResult run_engine(const EngineSpec& spec, const std::function<bool()>& cancelled,
                        const std::function<void(double)>& progress, bool& was_cancelled) {
    was_cancelled = false;
    if (spec.block_size == 0 || spec.file_size < spec.block_size)
        throw std::runtime_error("the file (" + std::to_string(spec.file_size) + " bytes) is smaller than one block");
    std::atomic<bool> stop{false};
    std::vector<std::unique_ptr<Worker>> workers;
    for (std::uint32_t i = 0; i < spec.jobs; ++i) {
        auto w = std::make_unique<Worker>();
        w->spec = spec;
        w->index = i;
        w->stop = &stop;
        workers.push_back(std::move(w));
    }
    std::vector<std::thread> threads;
    threads.reserve(workers.size());
    const std::uint64_t t0 = now_ns();
    try {
        for (auto& w : workers) threads.emplace_back([p = w.get()] { p->run(); });
    } catch (...) {
        stop.store(true);
        for (auto& t : threads) t.join();
        throw;
    }
    // The control thread only watches: cancellation, a failed worker, progress.
    // The workers stop at their own deadline and drain what is in flight.
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
    for (auto& w : workers) {
        if (!w->error.empty()) throw std::runtime_error(w->error);
        res.ios += w->ios;
        res.bytes += w->bytes;
        res.cpu_s += w->cpu_s;
        res.fixed_buffers = res.fixed_buffers && w->fixed;
        res.latency.add(w->latency);
        first = std::min(first, w->start_ns);
        last = std::max(last, w->end_ns);
    }
    if (was_cancelled) return EngineResult{};
    res.seconds = last > first ? static_cast<double>(last - first) / 1e9 : 0;
    return res;
}

}  // namespace stand_disk
