// disk probe: small helpers of the I/O code (clock, thread CPU time, errno
// errors, a fast random generator, aligned buffers, an owned descriptor).
#pragma once

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace stand_disk {

// CLOCK_MONOTONIC, the clock the host's stand.clock/1 uses; read directly
// because the I/O threads read it for every I/O.
inline std::uint64_t now_ns() noexcept {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

// User + system time of the calling thread.
inline double thread_cpu_s() noexcept {
    rusage ru{};
    ::getrusage(RUSAGE_THREAD, &ru);
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return secs(ru.ru_utime) + secs(ru.ru_stime);
}

[[noreturn]] inline void fail_errno(const std::string& what, int err) {
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

inline void fill_random(void* buf, std::size_t bytes, Rng& rng) noexcept {
    auto* p = static_cast<std::uint64_t*>(buf);
    for (std::size_t i = 0; i < bytes / 8; ++i) p[i] = rng.next();
}

// Page-aligned memory, as O_DIRECT wants it.
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
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
};

}  // namespace stand_disk
