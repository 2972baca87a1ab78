#include "tunnel/client_setup.hpp"

#include "host/http/target_resolver.hpp"
#include "quic/quic_error.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>

#include <optional>

namespace stand::tunnel {

namespace asio = boost::asio;

asio::ip::udp::endpoint resolve_server(const hysteria::HysteriaLink& link, bool allow_remote) {
    boost::system::error_code not_an_address;
    asio::ip::make_address(link.host, not_an_address);
    // No other name is looked up without --allow-remote: the query itself could leave this machine.
    if (not_an_address && !allow_remote && !host::http::is_localhost_name(link.host))
        throw RemoteServerError("the Hysteria server '" + link.host +
                                "' is a name other than localhost, which is not looked up");
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
                              "' is not on this machine; load goes only to loopback");
    return *chosen;
}

void check_sink(const std::string& sink, bool allow_remote) {
    const auto colon = sink.rfind(':');
    if (sink.empty() || colon == std::string::npos || colon == 0 || colon + 1 == sink.size())
        throw TunnelSpecError("the sink must be host:port, got '" + sink + "'");
    if (allow_remote) return;
    std::string host = sink.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host::http::is_local_host(host)) return;
    throw TunnelSpecError("refusing the sink '" + sink +
                          "': the server would dial it, and load goes only to loopback unless allowed (--allow-remote)");
}

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
