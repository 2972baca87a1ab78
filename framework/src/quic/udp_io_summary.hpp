// The UDP paths a measurement's QUIC connections used, over all of them
// (a reconnecting tunnel, a load's many connections): the paths in use, what
// the kernel refused, and the datagrams moved. Results carry it as "udp".
#pragma once

#include "quic/quic_connection.hpp"
#include "quic/udp_batch.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace stand::quic {

struct UdpIoSummary {
    std::string batching;  // as asked: auto, mmsg, off
    std::vector<std::string> send_paths;     // each path some connection used, first seen first
    std::vector<std::string> receive_paths;
    std::uint64_t connections = 0;
    std::uint64_t connections_with_ecn = 0;
    int receive_buffer = 0;                  // the smallest any connection got
    std::vector<std::string> fallbacks;
    QuicCounters counters;                   // summed

    // Once per connection, when it ends (or at the end of the run).
    void add(const QuicConnection& connection);
    void add(const UdpIoFeatures& features, const QuicCounters& counters);
    void merge(const UdpIoSummary& other);
    // "udp": {"batching", "send", "receive", "ecn", "receive_buffer",
    // "fallbacks", "datagrams_sent", "datagrams_received", "bytes_sent",
    // "bytes_received", "datagrams_not_quic"}.
    boost::json::object to_json() const;
    // "UDP: send gso+sendmmsg, receive gro+recvmmsg, ECN on (asked: auto)",
    // the datagrams in and out and those that were no QUIC packet, then each
    // fallback.
    std::vector<std::string> describe() const;
};

}  // namespace stand::quic
