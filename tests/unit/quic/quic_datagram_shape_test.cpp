// What a QUIC connection drops before ngtcp2 (quic/datagram_shape.hpp) and
// how the UDP summary reports it: an empty datagram from the server's address
// once ended a connection (issue 52, item 4).
#include "quic/datagram_shape.hpp"
#include "quic/udp_io_summary.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>

using namespace stand::quic;

TEST_CASE("quic datagram shape: empty, and shorter than a header's fixed fields or a stateless reset, is no QUIC packet") {
    std::array<std::uint8_t, 32> bytes{};
    CHECK(too_short_for_quic(bytes.data(), 0));
    bytes[0] = 0xc0;  // a long header
    CHECK(too_short_for_quic(bytes.data(), 6));
    CHECK_FALSE(too_short_for_quic(bytes.data(), 7));
    bytes[0] = 0x40;  // a short header
    CHECK(too_short_for_quic(bytes.data(), 1));
    CHECK(too_short_for_quic(bytes.data(), 20));
    CHECK_FALSE(too_short_for_quic(bytes.data(), 21));
}

TEST_CASE("quic datagram shape: the UDP summary carries the datagrams dropped as no QUIC packet") {
    UdpIoFeatures features;
    features.mmsg = true;
    QuicCounters counters;
    counters.packets_received = 5;
    counters.packets_dropped = 2;
    UdpIoSummary summary;
    summary.add(features, counters);
    summary.add(features, counters);
    CHECK(summary.to_json().at("datagrams_not_quic").as_uint64() == 4);
    const auto lines = summary.describe();
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.front().find("10 datagrams in") != std::string::npos);
    CHECK(lines.front().find("4 of the datagrams in were not QUIC packets (empty or too short), dropped") != std::string::npos);
    UdpIoSummary clean;
    clean.add(features, QuicCounters{});
    CHECK(clean.to_json().at("datagrams_not_quic").as_uint64() == 0);
    CHECK(clean.describe().front().find("not QUIC") == std::string::npos);
}
