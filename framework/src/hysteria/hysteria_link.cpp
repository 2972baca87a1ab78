#include "hysteria/hysteria_link.hpp"

#include "quic/quic_tls.hpp"

#include <charconv>

namespace stand::hysteria {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(const std::string& s, const std::string& what, bool plus_is_space) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            int hi = i + 1 < s.size() ? hex_value(s[i + 1]) : -1;
            int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
            if (hi < 0 || lo < 0) throw LinkError(what + ": a '%' without two hex digits");
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (plus_is_space && s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

// Go's strconv.ParseBool.
bool parse_bool(const std::string& v, const std::string& key) {
    if (v == "1" || v == "t" || v == "T" || v == "TRUE" || v == "true" || v == "True") return true;
    if (v == "0" || v == "f" || v == "F" || v == "FALSE" || v == "false" || v == "False") return false;
    throw LinkError("query '" + key + "': '" + v + "' is not a boolean (1/0, true/false)");
}

std::uint16_t parse_port(const std::string& text) {
    unsigned v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || v == 0 || v > 65535)
        throw LinkError("port '" + text + "' is not in 1..65535");
    return static_cast<std::uint16_t>(v);
}

}  // namespace

HysteriaLink parse_hysteria_link(const std::string& text) {
    HysteriaLink link;
    std::string rest;
    if (text.rfind("hysteria2://", 0) == 0) rest = text.substr(12);
    else if (text.rfind("hy2://", 0) == 0) rest = text.substr(6);
    else throw LinkError("not a hysteria2:// or hy2:// link: '" + text.substr(0, 40) + "'");

    if (auto hash = rest.find('#'); hash != std::string::npos) {
        link.name = percent_decode(rest.substr(hash + 1), "name", false);
        rest.erase(hash);
    }
    std::string query;
    if (auto q = rest.find('?'); q != std::string::npos) {
        query = rest.substr(q + 1);
        rest.erase(q);
    }
    if (!rest.empty() && rest.back() == '/') rest.pop_back();
    if (rest.find('/') != std::string::npos) throw LinkError("unexpected path in '" + text + "'");

    if (auto at = rest.rfind('@'); at != std::string::npos) {
        link.auth = percent_decode(rest.substr(0, at), "auth", false);
        rest.erase(0, at + 1);
    }
    std::string ports;
    if (!rest.empty() && rest.front() == '[') {
        auto close = rest.find(']');
        if (close == std::string::npos) throw LinkError("unclosed '[' in the host of '" + text + "'");
        link.host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            if (rest[close + 1] != ':') throw LinkError("junk after ']' in '" + text + "'");
            ports = rest.substr(close + 2);
        }
    } else {
        auto colon = rest.find(':');
        link.host = rest.substr(0, colon);
        if (colon != std::string::npos) ports = rest.substr(colon + 1);
    }
    if (link.host.empty()) throw LinkError("no host in '" + text + "'");
    if (!ports.empty()) {
        auto first_end = ports.find_first_of(",-");
        link.port_hopping = first_end != std::string::npos;
        link.port = parse_port(ports.substr(0, first_end));
    }

    std::size_t pos = 0;
    while (pos <= query.size() && !query.empty()) {
        auto amp = query.find('&', pos);
        std::string pair = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
        pos = amp == std::string::npos ? query.size() + 1 : amp + 1;
        if (pair.empty()) continue;
        auto eq = pair.find('=');
        std::string key = percent_decode(pair.substr(0, eq), "query key", true);
        std::string value = eq == std::string::npos ? "" : percent_decode(pair.substr(eq + 1), "query '" + key + "'", true);
        if (key == "sni") link.sni = value;
        else if (key == "insecure") link.insecure = parse_bool(value, key);
        else if (key == "pinSHA256") link.pin_sha256 = quic::normalize_pin(value);
        else if (key == "obfs") {
            if (value != "salamander")
                throw LinkError("obfs '" + value + "' is not supported (only salamander)");
            link.obfs = value;
        } else if (key == "obfs-password") link.obfs_password = value;
        else link.ignored.push_back(key);
    }
    if (!link.obfs.empty() && link.obfs_password.size() < 4)
        throw LinkError("obfs=salamander needs an obfs-password of at least 4 bytes");
    if (link.obfs.empty() && !link.obfs_password.empty())
        throw LinkError("obfs-password without obfs=salamander");
    return link;
}

}  // namespace stand::hysteria
