#include "tunnel/auth_probe.hpp"

#include "hysteria/hysteria_client.hpp"
#include "quic/quic_error.hpp"
#include "tunnel/client_setup.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace stand::tunnel {

std::string hysteria_auth_problem(const hysteria::HysteriaLink& link, bool allow_remote,
                                  std::chrono::milliseconds timeout) {
    ClientSetup setup = make_client_setup(link, "", "bbr", timeout, allow_remote);
    boost::asio::io_context io;
    std::string problem = "no answer within " + std::to_string(timeout.count()) + " ms";
    bool done = false;
    hysteria::HysteriaEvents events;
    hysteria::HysteriaClient* client = nullptr;
    events.on_ready = [&] {
        problem.clear();
        done = true;
        client->close();
    };
    events.on_closed = [&](const quic::CloseInfo& info, bool authenticated) {
        if (!done && !authenticated) problem = info.reason.empty() ? std::string("the connection closed") : info.reason;
        done = true;
        io.stop();
    };
    hysteria::HysteriaClient c(io, *setup.tls, setup.options, link.auth, std::move(events));
    client = &c;
    boost::asio::steady_timer deadline(io, timeout);
    deadline.async_wait([&](boost::system::error_code ec) {
        if (ec) return;
        c.abandon();
        io.stop();
    });
    try {
        c.connect();
    } catch (const quic::QuicSetupError& e) {
        return std::string("cannot open the QUIC socket: ") + e.what();
    }
    io.run();
    return problem;
}

}  // namespace stand::tunnel
