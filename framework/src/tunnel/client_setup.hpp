// What a Hysteria 2 client needs from a link: the server's address
// (resolved; loopback only unless allowed), the TLS context (SNI, name,
// insecure, pin, extra CA), Salamander when the link asks for it, and the
// QUIC options (congestion control, timeouts, keep-alive 10 s as the Go
// client). One per link; shared by every connection made from it.
#pragma once

#include "hysteria/hysteria_link.hpp"
#include "hysteria/salamander.hpp"
#include "quic/quic_connection.hpp"
#include "quic/quic_tls.hpp"

#include <chrono>
#include <memory>
#include <string>

namespace stand::tunnel {

struct ClientSetup {
    std::unique_ptr<quic::QuicTlsContext> tls;
    std::unique_ptr<hysteria::Salamander> obfuscator;
    quic::QuicOptions options;
};

// The address of the link's server: without `allow_remote` a loopback
// address or a localhost name, nothing else looked up. Throws
// RemoteServerError for one beyond this machine, TunnelSpecError for a
// name that does not resolve.
boost::asio::ip::udp::endpoint resolve_server(const hysteria::HysteriaLink& link, bool allow_remote);

// The sink the server dials, "host:port": without `allow_remote` a loopback
// address or a localhost name (the server would otherwise carry load off
// this machine). Throws TunnelSpecError naming it.
void check_sink(const std::string& sink, bool allow_remote);

// Throws TunnelSpecError: unresolvable or non-local server, bad CA file or
// pin, unknown congestion control.
ClientSetup make_client_setup(const hysteria::HysteriaLink& link, const std::string& ca_file, const std::string& cc,
                              std::chrono::nanoseconds handshake_timeout, bool allow_remote);

}  // namespace stand::tunnel
