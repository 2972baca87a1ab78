// ngtcp2 timestamps: steady nanoseconds (ngtcp2_tstamp is in ns).
#pragma once

#include <chrono>
#include <cstdint>

namespace stand::quic {

inline std::uint64_t quic_now() noexcept {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

}  // namespace stand::quic
