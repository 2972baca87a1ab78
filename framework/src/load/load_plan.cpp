#include "load/load_plan.hpp"

#include "host/http/target_resolver.hpp"
#include "host/http/url.hpp"
#include "load/link_pattern.hpp"

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <tuple>

namespace stand::load {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

bool iequal(const std::string& a, const char* b) {
    const std::size_t n = std::char_traits<char>::length(b);
    if (a.size() != n) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

bool is_token(const std::string& s) {
    if (s.empty()) return false;
    for (unsigned char c : s)
        if (!(std::isalnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos))
            return false;
    return true;
}

void check_header(const Header& h) {
    if (!is_token(h.first)) throw LoadSpecError("header name '" + h.first + "' is not a valid HTTP token");
    if (h.second.find_first_of("\r\n") != std::string::npos)
        throw LoadSpecError("header '" + h.first + "' has a line break in its value");
}

const char* kOnlyLocal = "stand load only sends to 127.0.0.0/8, ::1, localhost names resolving there and the "
                         "addresses of hosts declared with --host or --generator; pass --allow-remote to load another "
                         "machine";

bool declared(const std::vector<std::string>& hosts, const std::string& host) {
    return std::find(hosts.begin(), hosts.end(), host) != hosts.end();
}

// Loopback, or a fleet host the user declared (by the address or name the
// declaration gave), or anything with allow_remote. No other name is looked
// up: the query itself could leave this machine.
void check_host(const host::http::Url& url, const std::string& text, const LoadSpec& spec) {
    if (spec.allow_remote || declared(spec.declared_hosts, url.host)) return;
    if (url.host_is_ip) {
        if (!host::http::is_loopback(asio::ip::make_address(url.host)))
            throw LoadSpecError("refusing non-local target '" + text + "': " + kOnlyLocal);
    } else if (!host::http::is_localhost_name(url.host)) {
        throw LoadSpecError("refusing non-local target '" + text + "' (a name other than localhost is not looked up): " +
                            kOnlyLocal);
    }
}

std::vector<tcp::endpoint> resolve(asio::io_context& ioc, const host::http::Url& url, const std::string& text,
                                   const LoadSpec& spec) {
    check_host(url, text, spec);
    const bool allowed = spec.allow_remote || declared(spec.declared_hosts, url.host);
    if (url.host_is_ip) return {tcp::endpoint(asio::ip::make_address(url.host), url.port)};
    std::vector<tcp::endpoint> endpoints;
    try {
        endpoints = host::http::resolve_target(ioc, url, allowed, host::http::Deadline::after(std::chrono::seconds(10)));
    } catch (const std::exception& e) {
        throw LoadSpecError("cannot resolve '" + text + "': " + e.what());
    }
    if (!allowed)
        for (const auto& ep : endpoints)
            if (!host::http::is_loopback(ep.address()))
                throw LoadSpecError("refusing non-local target '" + text + "' (it resolves to " +
                                    ep.address().to_string() + "): " + kOnlyLocal);
    return endpoints;
}

}  // namespace

void check_target(const std::string& url, const LoadSpec& spec) {
    host::http::Url parsed;
    try {
        parsed = host::http::parse_url(url, "URL");
    } catch (const std::exception& e) {
        throw LoadSpecError(e.what());
    }
    check_host(parsed, url, spec);
}

asio::ip::address_v4 bind_address(const std::string& prefix, std::uint64_t k) {
    unsigned a = 0, b = 0;
    const char* p = prefix.data();
    const char* end = p + prefix.size();
    auto r1 = std::from_chars(p, end, a);
    bool ok = r1.ec == std::errc{} && r1.ptr < end && *r1.ptr == '.';
    if (ok) {
        auto r2 = std::from_chars(r1.ptr + 1, end, b);
        ok = r2.ec == std::errc{} && r2.ptr == end && r1.ptr + 1 != end;
    }
    if (!ok || a > 255 || b > 255) throw LoadSpecError("bind prefix '" + prefix + "' is not \"A.B\" (e.g. 127.0)");
    if (k >= 250 * 255) throw LoadSpecError("bind prefix '" + prefix + "' has room for 63750 links, not more");
    return asio::ip::address_v4(static_cast<asio::ip::address_v4::uint_type>(
        (a << 24) | (b << 16) | ((k / 250 + 1) << 8) | (k % 250 + 1)));
}

std::string build_request(const LoadSpec& spec, const Link& link, const std::string& target,
                          const std::string& authority, const std::string& xff) {
    // Later headers with the same name replace earlier ones; the generator's own go last.
    std::vector<Header> headers;
    auto set = [&](const std::string& name, const std::string& value) {
        auto it = std::find_if(headers.begin(), headers.end(), [&](const Header& h) { return iequal(h.first, name.c_str()); });
        if (it != headers.end()) *it = {name, value};
        else headers.emplace_back(name, value);
    };
    set("Host", authority);
    if (!spec.identity.user_agent.empty()) set("User-Agent", spec.identity.user_agent);
    for (const auto& h : spec.identity.headers) set(h.first, h.second);
    for (const auto& h : link.headers) set(h.first, h.second);
    if (!xff.empty()) set("X-Forwarded-For", xff);
    if (!spec.keepalive) set("Connection", "close");
    if (!link.body.empty() || link.method == "POST" || link.method == "PUT" || link.method == "PATCH")
        set("Content-Length", std::to_string(link.body.size()));

    std::string out;
    out.reserve(256 + link.body.size());
    out += link.method;
    out += ' ';
    out += target;
    out += " HTTP/1.1\r\n";
    for (const auto& [name, value] : headers) {
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    out += "\r\n";
    out += link.body;
    return out;
}

Plan prepare_plan(const LoadSpec& spec) {
    spec.validate();
    for (const auto& h : spec.identity.headers) check_header(h);
    if (spec.identity.user_agent.find_first_of("\r\n") != std::string::npos)
        throw LoadSpecError("the user agent has a line break");
    std::optional<LinkPattern> xff;
    if (spec.identity.xff_pattern) {
        try {
            xff.emplace(*spec.identity.xff_pattern);
        } catch (const std::invalid_argument& e) {
            throw LoadSpecError(std::string("--xff: ") + e.what());
        }
    }

    asio::io_context ioc;
    std::map<std::pair<std::string, std::uint16_t>, tcp::endpoint> resolved;
    std::map<std::tuple<tcp::endpoint, std::string, std::string, bool>, std::uint32_t> routes;
    Plan plan;
    plan.links.reserve(spec.links.size());
    const std::uint64_t n = spec.links.size();
    for (std::size_t k = 0; k < spec.links.size(); ++k) {
        const Link& link = spec.links[k];
        if (!is_token(link.method)) throw LoadSpecError("method '" + link.method + "' is not a valid HTTP token");
        for (const auto& h : link.headers) check_header(h);
        host::http::Url url;
        try {
            url = host::http::parse_url(link.url, "URL");
        } catch (const std::exception& e) {
            throw LoadSpecError(e.what());
        }
        PreparedLink p;
        p.url = link.url;
        p.tls = url.scheme == "https";
        p.head = link.method == "HEAD";
        p.verify_host = url.host;
        if (!url.host_is_ip) p.sni = url.host;
        const auto key = std::make_pair(url.host, url.port);
        auto it = resolved.find(key);
        if (it == resolved.end()) {
            auto endpoints = resolve(ioc, url, link.url, spec);
            // IPv4 first: a --bind-prefix source is IPv4, and most test servers listen there.
            auto v4 = std::find_if(endpoints.begin(), endpoints.end(), [](const tcp::endpoint& e) { return e.address().is_v4(); });
            it = resolved.emplace(key, v4 != endpoints.end() ? *v4 : endpoints.front()).first;
        }
        p.endpoint = it->second;
        if (spec.identity.bind_prefix) {
            p.source = bind_address(*spec.identity.bind_prefix, k);
            if (!p.endpoint.address().is_v4())
                throw LoadSpecError("--bind-prefix needs an IPv4 target, '" + link.url + "' is IPv6");
        }
        std::string xff_value;
        if (xff) {
            try {
                xff_value = xff->render(k, n);
            } catch (const std::invalid_argument& e) {
                throw LoadSpecError(std::string("--xff: ") + e.what());
            }
            if (xff_value.find_first_of("\r\n") != std::string::npos)
                throw LoadSpecError("--xff: the pattern yields a line break");
        }
        p.request = build_request(spec, link, url.target, url.authority(), xff_value);
        p.method = link.method;
        p.authority = url.authority();
        p.target = url.target;
        p.xff = xff_value;
        p.link = &link;
        if (spec.http3.enabled && !p.tls)
            throw LoadSpecError("'" + link.url + "': HTTP/3 needs an https:// URL");
        // The TLS name matters only to TLS connections: plain ones to one endpoint are shared.
        const auto route_key = std::make_tuple(p.endpoint, p.source ? p.source->to_string() : std::string(),
                                               p.tls ? p.sni : std::string(), p.tls);
        auto r = routes.find(route_key);
        if (r == routes.end()) r = routes.emplace(route_key, static_cast<std::uint32_t>(routes.size())).first;
        p.route = r->second;
        plan.any_tls = plan.any_tls || p.tls;
        plan.links.push_back(std::move(p));
    }
    plan.routes = static_cast<std::uint32_t>(routes.size());
    return plan;
}

}  // namespace stand::load
