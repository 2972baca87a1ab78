#include "backend/host_port.hpp"

#include <charconv>
#include <stdexcept>

namespace stand::backend {

namespace {

[[noreturn]] void reject(std::string_view text, const std::string& why) {
    throw std::invalid_argument("expected HOST:PORT, got '" + std::string(text) + "': " + why);
}

}  // namespace

boost::asio::ip::tcp::endpoint parse_host_port(std::string_view text) {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) reject(text, "no port");
    std::string_view host = text.substr(0, colon);
    const std::string_view port_text = text.substr(colon + 1);

    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    else if (host.find(':') != std::string_view::npos)
        reject(text, "an IPv6 address goes in brackets, as in [::1]:8080");
    if (host.empty()) reject(text, "no host");

    unsigned port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (port_text.empty() || ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535)
        reject(text, "the port must be a number in [0, 65535]");

    boost::asio::ip::address address;
    if (host == "localhost") {
        address = boost::asio::ip::address_v4::loopback();
    } else {
        boost::system::error_code error;
        address = boost::asio::ip::make_address(std::string(host), error);
        if (error) reject(text, "the host must be an IP address or localhost");
    }
    return {address, static_cast<unsigned short>(port)};
}

std::string format_host_port(const boost::asio::ip::tcp::endpoint& endpoint) {
    const std::string address = endpoint.address().to_string();
    const std::string port = std::to_string(endpoint.port());
    return endpoint.address().is_v6() ? "[" + address + "]:" + port : address + ":" + port;
}

}  // namespace stand::backend
