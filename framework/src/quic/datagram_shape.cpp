#include "quic/datagram_shape.hpp"

namespace stand::quic {

bool too_short_for_quic(const std::uint8_t* data, std::size_t len) noexcept {
    constexpr std::size_t kLongHeaderFixed = 7, kSmallestStatelessReset = 21;
    if (len == 0) return true;
    const bool long_header = (data[0] & 0x80) != 0;
    return len < (long_header ? kLongHeaderFixed : kSmallestStatelessReset);
}

}  // namespace stand::quic
