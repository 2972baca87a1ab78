// Descriptors from `first` on are closed at the next exec: what other threads
// opened without O_CLOEXEC (a metrics scraper's connection, a load's socket)
// must not leak into a program stand starts, a benchmarked one or a plugin
// worker. Async-signal-safe, for the child of a fork. Best effort: needs
// Linux 5.11 (close_range with CLOSE_RANGE_CLOEXEC).
#pragma once

#include <linux/close_range.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace stand::posix {

inline void cloexec_from(unsigned first) noexcept {
    ::syscall(SYS_close_range, first, ~0U, static_cast<unsigned>(CLOSE_RANGE_CLOEXEC));
}

}  // namespace stand::posix
