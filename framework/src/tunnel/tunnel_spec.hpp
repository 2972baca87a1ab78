// What a tunnel measurement asks for: one Hysteria 2 connection carrying
// `streams` downloads of the sink's /zero, plus a probe of /small on a new
// stream every `probe_interval` (97 ms by default, so it does not alias with
// a 100 ms CFS period). When the connection drops the client reconnects;
// streams that end without the client closing them count as dropped.
#pragma once

#include "hysteria/hysteria_link.hpp"
#include "quic/udp_batch.hpp"

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace stand::tunnel {

class TunnelSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The server is not on this machine and remote targets were not allowed.
// what() names `stand tunnel`'s way to allow it (--allow-remote); reason()
// is the same without it, for a caller whose ways are others (a scenario's).
class RemoteServerError : public TunnelSpecError {
public:
    explicit RemoteServerError(const std::string& reason)
        : TunnelSpecError(reason + " unless allowed (--allow-remote)"), reason_(reason) {}
    const std::string& reason() const noexcept { return reason_; }

private:
    std::string reason_;
};

struct TunnelSpec {
    hysteria::HysteriaLink link;
    std::string sink;  // "host:port" of the sink, as the server dials it
    unsigned streams = 1;
    std::chrono::nanoseconds duration = std::chrono::seconds(10);
    std::chrono::nanoseconds probe_interval = std::chrono::milliseconds(97);
    std::chrono::nanoseconds probe_timeout = std::chrono::seconds(2);
    std::chrono::nanoseconds handshake_timeout = std::chrono::seconds(5);
    std::string congestion_control = "bbr";  // the Go client's default
    quic::UdpBatching udp_batching = quic::UdpBatching::automatic;
    // Declared to the server as the download rate (Hysteria-CC-RX); a server
    // that honours it sends with Brutal at this rate. 0: none declared.
    double rx_mbit = 0;
    std::string ca_file;
    // A second whose rate is below this many Mbit/s is counted; 0: half the
    // median of the run's seconds.
    double below_mbit = 0;
    bool allow_remote = false;
    void validate() const;  // throws TunnelSpecError
};

}  // namespace stand::tunnel
