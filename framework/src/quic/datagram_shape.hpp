// Datagrams that cannot be a QUIC packet, which a connection drops and
// counts before ngtcp2 sees them: ngtcp2_conn_read_pkt answers an empty
// datagram with NGTCP2_ERR_INVALID_ARGUMENT, and a connection that passed it
// on would end over one datagram anyone on the path can send.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stand::quic {

// Empty; a long header (first bit set) shorter than its fixed fields (7
// bytes: the first byte, the version and the two connection ID lengths); a
// short header shorter than the smallest stateless reset (21 bytes, RFC 9000
// section 10.3), which no 1-RTT packet is shorter than either.
bool too_short_for_quic(const std::uint8_t* data, std::size_t len) noexcept;

}  // namespace stand::quic
