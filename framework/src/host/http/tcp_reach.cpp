#include "host/http/tcp_reach.hpp"

#include "host/http/target_resolver.hpp"

#include <boost/asio/connect.hpp>

namespace stand::host::http {

namespace asio = boost::asio;

std::string tcp_connect_problem(const std::string& host, std::uint16_t port, bool allow_remote,
                                std::chrono::milliseconds timeout) {
    try {
        asio::io_context io;
        Url url;
        url.host = host;
        url.port = port;
        boost::system::error_code parsed;
        asio::ip::make_address(host, parsed);
        url.host_is_ip = !parsed;
        const auto deadline = Deadline::after(timeout);
        auto endpoints = resolve_target(io, url, allow_remote, deadline);
        asio::ip::tcp::socket socket(io);
        boost::system::error_code result = asio::error::timed_out;
        asio::async_connect(socket, endpoints, [&](boost::system::error_code ec, const auto&) { result = ec; });
        io.restart();
        io.run_until(deadline.at);
        if (result == asio::error::timed_out) return "no answer in " + std::to_string(timeout.count()) + " ms";
        if (result) return result.message();
        return {};
    } catch (const std::exception& e) {
        return e.what();
    }
}

}  // namespace stand::host::http
