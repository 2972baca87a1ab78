// disk probe: the kernel I/O interface of one I/O thread (io_uring or libaio)
// and the choice between them. An engine owns one queue for one O_DIRECT file
// descriptor and queue_depth block buffers; the thread's loop (io_worker.cpp)
// decides what to issue and when.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace stand_disk {

enum class EngineKind { io_uring, libaio };

const char* engine_name(EngineKind kind) noexcept;
std::optional<EngineKind> engine_from_name(std::string_view name) noexcept;

struct EngineSetup {
    int fd = -1;                  // opened with O_DIRECT
    void* buffers = nullptr;      // queue_depth blocks of block_size bytes, 4096-aligned
    std::uint32_t block_size = 0;
    std::uint32_t queue_depth = 0;
    bool write = false;
};

struct Completion {
    std::uint32_t slot = 0;
    std::int32_t result = 0;  // bytes transferred, or -errno
};

class IoEngine {
public:
    virtual ~IoEngine() = default;
    // Adds the I/O of buffer `slot` at byte `offset` to the next submit().
    virtual void queue(std::uint32_t slot, std::uint64_t offset) = 0;
    // Hands every queued I/O to the kernel.
    virtual void submit() = 0;
    // Waits until at least `min` I/Os completed, then stores every completion
    // available (at most out.size()) into `out`; returns how many it stored.
    virtual std::size_t reap(std::size_t min, std::span<Completion> out) = 0;
    // Whether the buffers are registered with the kernel once (io_uring fixed buffers).
    virtual bool fixed_buffers() const noexcept = 0;
};

// Both throw std::runtime_error naming the failing call and its errno.
std::unique_ptr<IoEngine> make_uring_engine(const EngineSetup& setup);
std::unique_ptr<IoEngine> make_aio_engine(const EngineSetup& setup);
std::unique_ptr<IoEngine> make_engine(EngineKind kind, const EngineSetup& setup);

// 0 when this process may set up an io_uring, else the errno io_uring_queue_init failed with.
int uring_setup_errno() noexcept;

struct EngineChoice {
    EngineKind kind = EngineKind::io_uring;
    std::string note;  // why the engine differs from the requested one; "" when it does not
};

// The engine to run when `requested` was asked for and setting up an io_uring
// failed with `uring_errno` (0: it works). io_uring falls back to libaio when
// the kernel lacks it or refuses it (ENOSYS, EPERM: kernel.io_uring_disabled,
// seccomp); any other setup error is thrown as std::runtime_error.
EngineChoice choose_engine(EngineKind requested, int uring_errno);

}  // namespace stand_disk
