// The disk probe's engines directly: io_uring and libaio read the right
// blocks and run a short time-based job in /var/tmp; the fallback decision,
// also for real under a seccomp filter that refuses io_uring_setup.
#include "disk_engine.hpp"
#include "io_engine.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace stand_disk;

namespace {

struct TempDir {
    std::string path = "/var/tmp/stand-disk-engine-test-XXXXXX";
    TempDir() { REQUIRE(::mkdtemp(path.data()) != nullptr); }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

std::vector<EngineKind> usable_engines() {
    std::vector<EngineKind> kinds{EngineKind::libaio};
    if (int e = uring_setup_errno(); e == 0) kinds.push_back(EngineKind::io_uring);
    else MESSAGE("io_uring is unavailable here (" << std::strerror(e) << "): only libaio is tested");
    return kinds;
}

// Block i of the file starts with the 8 bytes of i.
void write_numbered_blocks(const std::string& path, std::uint64_t blocks) {
    int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    std::vector<char> block(4096, 'x');
    for (std::uint64_t i = 0; i < blocks; ++i) {
        std::memcpy(block.data(), &i, sizeof i);
        REQUIRE(::pwrite(fd, block.data(), block.size(), static_cast<off_t>(i * 4096)) == 4096);
    }
    REQUIRE(::fsync(fd) == 0);
    ::close(fd);
}

}  // namespace

TEST_CASE("disk engines: io_uring and libaio read the blocks they were asked for into the slots named") {
    TempDir dir;
    const std::string path = dir.path + "/numbered.dat";
    write_numbered_blocks(path, 16);
    for (EngineKind kind : usable_engines()) {
        CAPTURE(engine_name(kind));
        int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
        REQUIRE(fd >= 0);
        void* buffers = std::aligned_alloc(4096, 4 * 4096);
        REQUIRE(buffers != nullptr);
        {
            auto engine = make_engine(kind, EngineSetup{fd, buffers, 4096, 4, false});
            const std::array<std::uint64_t, 4> wanted{13, 0, 7, 5};  // block for slot 0..3
            for (std::uint32_t slot = 0; slot < 4; ++slot) engine->queue(slot, wanted[slot] * 4096);
            engine->submit();
            std::array<Completion, 4> done{};
            std::size_t reaped = 0;
            std::array<bool, 4> seen{};
            while (reaped < 4) {
                const std::size_t n = engine->reap(1, std::span<Completion>(done).subspan(0, 4 - reaped));
                REQUIRE(n >= 1);
                for (std::size_t i = 0; i < n; ++i) {
                    CHECK(done[i].result == 4096);
                    REQUIRE(done[i].slot < 4);
                    seen[done[i].slot] = true;
                }
                reaped += n;
            }
            for (std::uint32_t slot = 0; slot < 4; ++slot) {
                CHECK(seen[slot]);
                std::uint64_t got = 0;
                std::memcpy(&got, static_cast<char*>(buffers) + slot * 4096, sizeof got);
                CHECK(got == wanted[slot]);
            }
        }
        std::free(buffers);
        ::close(fd);
    }
}

TEST_CASE("disk engines: a short time-based random read and write run on each engine") {
    TempDir dir;
    const std::string path = dir.path + "/run.dat";
    REQUIRE(fill_file(path, 8u << 20, [] { return false; }, [](double) {}));
    for (EngineKind kind : usable_engines()) {
        for (bool write : {false, true}) {
            CAPTURE(engine_name(kind));
            CAPTURE(write);
            EngineSpec spec;
            spec.path = path;
            spec.file_size = 8u << 20;
            spec.block_size = 4096;
            spec.queue_depth = 8;
            spec.random = true;
            spec.write = write;
            spec.engine = kind;
            spec.duration_ns = 200'000'000;
            bool cancelled = false;
            EngineResult r = run_engine(spec, [] { return false; }, [](double) {}, cancelled);
            CHECK_FALSE(cancelled);
            CHECK(r.ios > 0);
            CHECK(r.bytes == r.ios * 4096);
            CHECK(r.latency.count() == r.ios);
            CHECK(r.seconds >= 0.2);
            CHECK(r.cpu_s > 0);
            if (kind == EngineKind::libaio) CHECK_FALSE(r.fixed_buffers);
        }
    }
}

TEST_CASE("disk engines: io_uring falls back to libaio only where the kernel refuses it") {
    CHECK(engine_from_name("io_uring") == EngineKind::io_uring);
    CHECK(engine_from_name("libaio") == EngineKind::libaio);
    CHECK_FALSE(engine_from_name("sync").has_value());

    auto works = choose_engine(EngineKind::io_uring, 0);
    CHECK(works.kind == EngineKind::io_uring);
    CHECK(works.note.empty());
    auto disabled = choose_engine(EngineKind::io_uring, EPERM);
    CHECK(disabled.kind == EngineKind::libaio);
    CHECK(disabled.note.find("io_uring_disabled") != std::string::npos);
    CHECK(disabled.note.find("libaio") != std::string::npos);
    auto missing = choose_engine(EngineKind::io_uring, ENOSYS);
    CHECK(missing.kind == EngineKind::libaio);
    CHECK(missing.note.find("lacks") != std::string::npos);
    auto asked = choose_engine(EngineKind::libaio, EPERM);
    CHECK(asked.kind == EngineKind::libaio);
    CHECK(asked.note.empty());
    CHECK_THROWS_WITH(choose_engine(EngineKind::io_uring, ENOMEM), doctest::Contains("io_uring_queue_init"));
}

TEST_CASE("disk engines: with io_uring_setup refused (seccomp, EPERM) the probe's choice runs on libaio") {
    TempDir dir;
    const std::string path = dir.path + "/fallback.dat";
    REQUIRE(fill_file(path, 4u << 20, [] { return false; }, [](double) {}));
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The child refuses itself io_uring_setup, as kernel.io_uring_disabled=2 would.
        sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        sock_fprog prog{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
        if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
            ::_exit(10);
        const int e = uring_setup_errno();
        if (e != EPERM) ::_exit(11);
        EngineChoice choice = choose_engine(EngineKind::io_uring, e);
        if (choice.kind != EngineKind::libaio || choice.note.empty()) ::_exit(12);
        EngineSpec spec;
        spec.path = path;
        spec.file_size = 4u << 20;
        spec.queue_depth = 4;
        spec.random = true;
        spec.engine = choice.kind;
        spec.duration_ns = 100'000'000;
        bool cancelled = false;
        try {
            if (run_engine(spec, [] { return false; }, [](double) {}, cancelled).ios == 0) ::_exit(13);
        } catch (...) {
            ::_exit(14);
        }
        ::_exit(0);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK_MESSAGE(WEXITSTATUS(status) == 0, "child step that failed: " << WEXITSTATUS(status)
                                                                       << " (10 seccomp, 11 errno, 12 choice, 13 no I/O, 14 run threw)");
}
