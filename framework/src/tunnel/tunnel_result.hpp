// What a tunnel measurement saw. Latencies are µs histograms.
#pragma once

#include "load/hdr_histogram.hpp"
#include "quic/udp_io_summary.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace stand::tunnel {

struct TunnelResult {
    // The run as asked.
    std::string server;  // host:port
    std::string sink;
    unsigned streams = 0;
    double duration_s = 0;
    double probe_interval_ms = 0;
    std::string congestion_control;
    bool obfs = false;
    double rx_mbit = 0;      // the download rate declared (Hysteria-CC-RX); 0: none

    // The first connection.
    double handshake_ms = 0;  // QUIC handshake
    double auth_ms = 0;       // connect to status 233
    std::string server_udp;   // Hysteria-UDP of the auth answer
    std::string server_cc_rx; // Hysteria-CC-RX of the auth answer

    // Throughput.
    double window_s = 0;
    std::uint64_t bytes = 0;            // relayed from the sink, all streams
    std::vector<double> mbit_per_second;
    double mbit_mean = 0;               // bytes over the window
    double below_mbit = 0;              // the threshold used
    std::uint64_t seconds_below = 0;

    // Probes.
    std::uint64_t probes_sent = 0;
    std::uint64_t probes_ok = 0;
    std::uint64_t probes_failed = 0;    // error, timeout, or no tunnel at the time
    load::HdrHistogram probe_latency{60'000'000};

    // Disruption.
    std::uint64_t streams_opened = 0;
    std::uint64_t streams_dropped = 0;  // distinct streams that ended without us closing them
    std::uint64_t reconnects = 0;       // connections re-established after a loss
    std::uint64_t connection_losses = 0;
    std::vector<double> reconnect_gaps_ms;  // loss to authenticated again
    std::vector<std::string> loss_reasons;  // the first few, as the QUIC layer saw them

    // Cost on the client.
    double cpu_s = 0;                   // user + system of this process over the window
    double mbit_per_cpu_s = 0;
    quic::UdpIoSummary udp;             // the UDP paths of every connection, and their datagrams

    std::vector<std::string> warnings;
    boost::json::object to_json() const;
};

}  // namespace stand::tunnel
