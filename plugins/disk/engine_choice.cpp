// disk probe: engine names and the choice of the engine (io_uring, or libaio
// where the kernel refuses io_uring).
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "io_engine.hpp"

namespace stand_disk {

const char* engine_name(EngineKind kind) noexcept { return kind == EngineKind::libaio ? "libaio" : "io_uring"; }

std::optional<EngineKind> engine_from_name(std::string_view name) noexcept {
    if (name == "io_uring") return EngineKind::io_uring;
    if (name == "libaio") return EngineKind::libaio;
    return std::nullopt;
}

std::unique_ptr<IoEngine> make_engine(EngineKind kind, const EngineSetup& setup) {
    return kind == EngineKind::libaio ? make_aio_engine(setup) : make_uring_engine(setup);
}

EngineChoice choose_engine(EngineKind requested, int uring_errno) {
    if (requested == EngineKind::libaio || uring_errno == 0) return {requested, ""};
    if (uring_errno == ENOSYS || uring_errno == EPERM)
        return {EngineKind::libaio,
                std::string("io_uring is unavailable here (io_uring_queue_init: ") + std::strerror(uring_errno) +
                    (uring_errno == EPERM ? "; kernel.io_uring_disabled or a seccomp filter refuses it"
                                          : "; the kernel lacks it") +
                    "), so the probe used libaio (io_submit/io_getevents, O_DIRECT) instead"};
    throw std::runtime_error(std::string("io_uring_queue_init: ") + std::strerror(uring_errno));
}

}  // namespace stand_disk
