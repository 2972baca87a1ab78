#include "compat/share_link.hpp"

#include "target/subscription_links.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>

namespace stand::compat {
namespace {

std::string percent_decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

void add_secret(ShareLink& link, const std::string& secret) {
    if (secret.empty()) return;
    link.credentials.push_back(secret);
    if (auto colon = secret.find(':'); colon != std::string::npos) {
        if (colon > 0) link.credentials.push_back(secret.substr(0, colon));
        if (colon + 1 < secret.size()) link.credentials.push_back(secret.substr(colon + 1));
    }
}

// host[:port] of an authority; false when it does not parse.
bool split_host_port(const std::string& authority, ShareLink& link) {
    std::string port;
    if (!authority.empty() && authority.front() == '[') {
        auto close = authority.find(']');
        if (close == std::string::npos) return false;
        link.host = authority.substr(1, close - 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') return false;
            port = authority.substr(close + 2);
        }
    } else if (auto colon = authority.rfind(':'); colon != std::string::npos) {
        link.host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
    } else {
        link.host = authority;
    }
    if (!port.empty()) {
        if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        link.port = std::stoi(port);
    }
    std::transform(link.host.begin(), link.host.end(), link.host.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return true;
}

void add_query_secrets(const std::string& query, ShareLink& link) {
    std::size_t start = 0;
    while (start < query.size()) {
        auto end = query.find('&', start);
        std::string pair = query.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? query.size() : end + 1;
        auto eq = pair.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = pair.substr(0, eq);
        if (key == "password" || key == "auth") add_secret(link, percent_decode(pair.substr(eq + 1)));
    }
}

// vmess://base64({"add":..,"port":..,"id":..}) as v2rayN writes it.
ParsedShareLink parse_vmess_json(const std::string& payload) {
    auto decoded = target::base64_decode(payload);
    boost::system::error_code ec;
    auto v = decoded ? boost::json::parse(*decoded, ec) : boost::json::value();
    if (!decoded || ec || !v.is_object()) return {std::nullopt, "vmess:// holds neither base64 JSON nor user@host:port"};
    const auto& o = v.as_object();
    ShareLink link;
    link.scheme = "vmess";
    if (auto* a = o.if_contains("add"); a && a->is_string()) link.host = std::string(a->as_string());
    if (auto* p = o.if_contains("port")) {
        if (p->is_int64()) link.port = static_cast<int>(p->as_int64());
        else if (p->is_string() && !p->as_string().empty()) {
            try {
                link.port = std::stoi(std::string(p->as_string()));
            } catch (const std::exception&) {
                return {std::nullopt, "vmess JSON: \"port\" is not a number"};
            }
        }
    }
    if (auto* id = o.if_contains("id"); id && id->is_string()) add_secret(link, std::string(id->as_string()));
    return {link, {}};
}

}  // namespace

ParsedShareLink parse_share_link(const std::string& text) {
    const auto sep = text.find("://");
    if (sep == std::string::npos) return {std::nullopt, "not a link"};
    ShareLink link;
    link.text = text;
    link.scheme = text.substr(0, sep);
    std::string rest = text.substr(sep + 3);
    rest = rest.substr(0, rest.find('#'));
    std::string query;
    if (auto q = rest.find('?'); q != std::string::npos) {
        query = rest.substr(q + 1);
        rest = rest.substr(0, q);
    }
    // base64 payloads (vmess JSON, legacy ss) may hold '/': they have no '@'
    const bool has_userinfo = rest.find('@') != std::string::npos;
    if (link.scheme == "vmess" && !has_userinfo) return parse_vmess_json(rest);
    std::string authority = has_userinfo ? rest.substr(0, rest.find('/', rest.rfind('@'))) : rest.substr(0, rest.find('/'));
    std::string userinfo;
    if (has_userinfo) {
        const auto at = authority.rfind('@');
        userinfo = authority.substr(0, at);
        authority = authority.substr(at + 1);
    } else if (link.scheme == "ss") {
        // legacy ss://base64(method:password@host:port)
        auto decoded = target::base64_decode(rest);
        auto at2 = decoded ? decoded->rfind('@') : std::string::npos;
        if (at2 == std::string::npos) return {std::nullopt, "ss:// holds no method:password@host:port"};
        userinfo = decoded->substr(0, at2);
        authority = decoded->substr(at2 + 1);
    }
    if (!split_host_port(authority, link)) return {std::nullopt, "cannot read host:port from '" + authority + "'"};
    userinfo = percent_decode(userinfo);
    if (link.scheme == "ss" && userinfo.find(':') == std::string::npos) {
        // SIP002: userinfo is base64url(method:password)
        if (auto decoded = target::base64_decode(userinfo)) userinfo = *decoded;
    }
    add_secret(link, userinfo);
    add_query_secrets(query, link);
    link.udp = link.scheme == "hysteria2" || link.scheme == "hy2" || link.scheme == "tuic" || link.scheme == "wireguard";
    return {link, {}};
}

std::string endpoint_problem(const ShareLink& link) {
    const std::string& h = link.host;
    auto ends_with = [&](const std::string& suffix) {
        return h.size() >= suffix.size() && h.compare(h.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (h.empty()) return "no host";
    if (h == "0.0.0.0" || h == "::" || h == "0:0:0:0:0:0:0:0") return "the wildcard address " + h + " as host";
    if (h.find_first_of("{}$<>") != std::string::npos) return "an unfilled template '" + h + "' as host";
    for (const char* name : {"example.com", "example.org", "example.net"})
        if (h == name || ends_with(std::string(".") + name)) return "the placeholder host " + h + " (RFC 2606)";
    for (const char* tld : {".example", ".invalid"})
        if (ends_with(tld) || h == std::string(tld).substr(1)) return "the placeholder host " + h + " (RFC 2606)";
    if (link.port < 0) return "no port";
    if (link.port == 0 || link.port > 65535) return "port " + std::to_string(link.port);
    return {};
}

bool carries_credential(const ShareLink& link, const std::string& credential) {
    return std::find(link.credentials.begin(), link.credentials.end(), credential) != link.credentials.end();
}

}  // namespace stand::compat
