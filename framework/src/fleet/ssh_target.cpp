#include "fleet/ssh_target.hpp"

#include "fleet/fleet_error.hpp"

#include <boost/asio/ip/address.hpp>

#include <charconv>

namespace stand::fleet {
namespace {

bool all_of(std::string_view text, std::string_view extra) {
    for (char c : text) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && extra.find(c) == std::string_view::npos) return false;
    }
    return true;
}

[[noreturn]] void refuse(std::string_view arg, const std::string& why) {
    throw FleetError("host '" + std::string(arg) + "': " + why +
                     " (expected NAME=ssh://USER@ADDRESS[:PORT], e.g. box=ssh://root@10.0.0.2)");
}

bool valid_host_name(std::string_view h) {
    if (h.empty() || h.size() > 253 || h.front() == '-' || h.front() == '.' || !all_of(h, "-.")) return false;
    return h.find("..") == std::string_view::npos;
}

// "address[:port]" or "[v6][:port]".
void read_address(std::string_view arg, std::string_view rest, SshTarget& t) {
    std::string_view port_text;
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) refuse(arg, "an IPv6 address without its closing ']'");
        t.address = std::string(rest.substr(1, close - 1));
        boost::system::error_code ec;
        boost::asio::ip::make_address_v6(t.address, ec);
        if (ec) refuse(arg, "'" + t.address + "' is not an IPv6 address");
        rest.remove_prefix(close + 1);
        if (!rest.empty() && rest.front() != ':') refuse(arg, "text after the IPv6 address");
        if (!rest.empty()) port_text = rest.substr(1);
    } else {
        const auto colon = rest.find(':');
        t.address = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos) port_text = rest.substr(colon + 1);
        if (!valid_host_name(t.address)) refuse(arg, "'" + t.address + "' is not an address or host name");
    }
    if (port_text.empty() && rest.find(':') != std::string_view::npos) refuse(arg, "an empty port");
    if (!port_text.empty()) {
        unsigned port = 0;
        auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
        if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535)
            refuse(arg, "the port must be 1..65535, got '" + std::string(port_text) + "'");
        t.port = static_cast<std::uint16_t>(port);
    }
}

}  // namespace

std::string SshTarget::url() const {
    const bool v6 = address.find(':') != std::string::npos;
    return "ssh://" + user + "@" + (v6 ? "[" + address + "]" : address) + ":" + std::to_string(port);
}

SshTarget parse_host_arg(std::string_view arg) {
    SshTarget t;
    std::string_view url = arg;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
        t.name = std::string(arg.substr(0, eq));
        url = arg.substr(eq + 1);
        if (t.name.empty() || t.name.size() > 64 || !all_of(t.name, "_-") || t.name.front() == '-')
            refuse(arg, "the name must be 1 to 64 letters, digits, '_' or '-', not starting with '-'");
    }
    constexpr std::string_view kScheme = "ssh://";
    if (url.substr(0, kScheme.size()) != kScheme) refuse(arg, "not an ssh:// URL");
    std::string_view rest = url.substr(kScheme.size());
    if (rest.find_first_of("/?#") != std::string_view::npos) refuse(arg, "a path, query or fragment");
    const auto at = rest.rfind('@');
    if (at == std::string_view::npos) refuse(arg, "no user (ssh://USER@ADDRESS)");
    const std::string_view user = rest.substr(0, at);
    if (user.find(':') != std::string_view::npos) refuse(arg, "a password in the URL: fleet hosts take keys only");
    if (user.empty() || user.size() > 32 || user.front() == '-' || !all_of(user, "._-"))
        refuse(arg, "the user must be 1 to 32 letters, digits, '.', '_' or '-'");
    t.user = std::string(user);
    read_address(arg, rest.substr(at + 1), t);
    if (t.name.empty()) {  // the address, and its port when given: two ports of one address are two hosts
        t.name = t.address;
        if (t.port != 22) t.name += "_" + std::to_string(t.port);
        for (char& c : t.name)
            if (!all_of(std::string_view(&c, 1), "_-")) c = '_';
    }
    return t;
}

}  // namespace stand::fleet
