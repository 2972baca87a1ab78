#include "tunnel/client_setup.hpp"

#include "quic/quic_error.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>

#include <optional>

namespace stand::tunnel {

namespace asio = boost::asio;

namespace {

asio::ip::udp::endpoint resolve_server(const hysteria::HysteriaLink& link, bool allow_remote) {
    asio::io_context io;
    asio::ip::udp::resolver resolver(io);
    boost::system::error_code ec;
    auto results = resolver.resolve(link.host, std::to_string(link.port), ec);
    if (ec || results.empty())
        throw TunnelSpecError("cannot resolve the Hysteria server '" + link.host + "': " + ec.message());
    std::optional<asio::ip::udp::endpoint> chosen;
    for (const auto& r : results) {
        auto ep = r.endpoint();
        if (!allow_remote && !ep.address().is_loopback()) continue;
        if (!chosen || (ep.address().is_v4() && !chosen->address().is_v4())) chosen = ep;
    }
    if (!chosen)
        throw RemoteServerError("the Hysteria server '" + link.host +
                              "' is not on this machine; load goes only to loopback unless allowed (--allow-remote)");
    return *chosen;
}

}  // namespace

ClientSetup make_client_setup(const hysteria::HysteriaLink& link, const std::string& ca_file, const std::string& cc,
                              std::chrono::nanoseconds handshake_timeout, bool allow_remote) {
    ClientSetup setup;
    setup.options.remote = resolve_server(link, allow_remote);
    const auto algo = quic::parse_congestion_control(cc);
    if (!algo) throw TunnelSpecError("congestion control '" + cc + "': expected cubic, bbr, bbr2 or reno");
    quic::QuicTlsOptions tls;
    // SNI: the link's sni, else the host name (none for an address, as RFC 6066 asks).
    boost::system::error_code ec;
    asio::ip::make_address(link.host, ec);
    const bool host_is_address = !ec;
    tls.sni = !link.sni.empty() ? link.sni : host_is_address ? std::string() : link.host;
    tls.verify_name = !link.sni.empty() ? link.sni : link.host;
    tls.insecure = link.insecure;
    tls.pin_sha256 = link.pin_sha256;
    tls.ca_file = ca_file;
    try {
        setup.tls = std::make_unique<quic::QuicTlsContext>(tls);
    } catch (const quic::QuicSetupError& e) {
        throw TunnelSpecError(e.what());
    }
    if (link.obfs == "salamander") setup.obfuscator = std::make_unique<hysteria::Salamander>(link.obfs_password);
    setup.options.cc = *algo;
    setup.options.handshake_timeout = handshake_timeout;
    setup.options.idle_timeout = std::chrono::seconds(30);
    setup.options.keep_alive = std::chrono::seconds(10);
    setup.options.obfuscator = setup.obfuscator.get();
    return setup;
}

}  // namespace stand::tunnel
