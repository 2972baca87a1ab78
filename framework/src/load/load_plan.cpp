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
    bool ok = r1.ec == std::errc{} && r1.ptr != p;
    const bool one_octet = ok && r1.ptr == end;
    if (ok && !one_octet) {
        ok = *r1.ptr == '.';
        auto r2 = std::from_chars(r1.ptr + 1, end, b);
        ok = ok && r2.ec == std::errc{} && r2.ptr == end && r1.ptr + 1 != end;
    }
    if (!ok || a > 255 || b > 255)
        throw LoadSpecError("bind prefix '" + prefix + "' is not \"A.B\" or \"A\" (e.g. 127.0, or 127 for more than 63750 links)");
    constexpr std::uint64_t kPerTwoOctets = 250 * 255;
    if (one_octet) {
        if (k >= 256 * kPerTwoOctets) throw LoadSpecError("bind prefix '" + prefix + "' has room for 16320000 links, not more");
        b = static_cast<unsigned>(k / kPerTwoOctets);
        k %= kPerTwoOctets;
    } else if (k >= kPerTwoOctets) {
        throw LoadSpecError("bind prefix '" + prefix + "' has room for 63750 links, not more (\"" +
                            prefix.substr(0, prefix.find('.')) + "\" has room for 16320000)");
    }
    return asio::ip::address_v4(static_cast<asio::ip::address_v4::uint_type>(
        (a << 24) | (b << 16) | ((k / 250 + 1) << 8) | (k % 250 + 1)));
}

std::string build_request(const LoadSpec& spec, const LinkShape& link, const std::string& target,
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

namespace {

std::optional<LinkPattern> xff_pattern(const LoadSpec& spec) {
    if (!spec.identity.xff_pattern) return std::nullopt;
    try {
        return LinkPattern(*spec.identity.xff_pattern);
    } catch (const std::invalid_argument& e) {
        throw LoadSpecError(std::string("--xff: ") + e.what());
    }
}

std::string xff_of(const std::optional<LinkPattern>& xff, std::uint64_t k, std::uint64_t n) {
    if (!xff) return {};
    std::string value;
    try {
        value = xff->render(k, n);
    } catch (const std::invalid_argument& e) {
        throw LoadSpecError(std::string("--xff: ") + e.what());
    }
    if (value.find_first_of("\r\n") != std::string::npos) throw LoadSpecError("--xff: the pattern yields a line break");
    return value;
}

host::http::Url parsed_url(std::string_view text) {
    try {
        return host::http::parse_url(std::string(text), "URL");
    } catch (const std::exception& e) {
        throw LoadSpecError(e.what());
    }
}

void check_spec(const LoadSpec& spec) {
    spec.validate();
    for (const auto& h : spec.identity.headers) check_header(h);
    if (spec.identity.user_agent.find_first_of("\r\n") != std::string::npos)
        throw LoadSpecError("the user agent has a line break");
}

// The plan's origins and routes as links are added: a few map entries per
// distinct origin, none per link (a --bind-prefix source makes every link its
// own route, numbered by k).
class PlanBuilder {
public:
    PlanBuilder(const LoadSpec& spec, Plan& plan) : spec_(spec), plan_(plan) {}

    std::uint32_t origin(const host::http::Url& url, std::string_view link) {
        const auto key = std::make_tuple(url.scheme == "https", url.host, url.port);
        if (auto it = origins_.find(key); it != origins_.end()) return it->second;
        const std::string text(link);  // a new origin only: not a copy per link
        Origin o;
        o.tls = url.scheme == "https";
        o.verify_host = url.host;
        if (!url.host_is_ip) o.sni = url.host;
        o.authority = url.authority();
        auto endpoints = resolve(ioc_, url, text, spec_);
        // IPv4 first: a --bind-prefix source is IPv4, and most test servers listen there.
        auto v4 = std::find_if(endpoints.begin(), endpoints.end(), [](const tcp::endpoint& e) { return e.address().is_v4(); });
        o.endpoint = v4 != endpoints.end() ? *v4 : endpoints.front();
        if (spec_.identity.bind_prefix && !o.endpoint.address().is_v4())
            throw LoadSpecError("--bind-prefix needs an IPv4 target, '" + text + "' is IPv6");
        if (spec_.http3.enabled && !o.tls) throw LoadSpecError("'" + text + "': HTTP/3 needs an https:// URL");
        plan_.origins.push_back(std::move(o));
        return origins_.emplace(key, static_cast<std::uint32_t>(plan_.origins.size() - 1)).first->second;
    }

    std::uint32_t route(std::uint32_t origin, std::size_t k) {
        if (spec_.identity.bind_prefix) return static_cast<std::uint32_t>(k);
        const Origin& o = plan_.origins[origin];
        // The TLS name matters only to TLS connections: plain ones to one endpoint are shared.
        const auto key = std::make_tuple(o.endpoint, o.tls ? o.sni : std::string(), o.tls);
        auto r = routes_.find(key);
        if (r == routes_.end()) r = routes_.emplace(key, static_cast<std::uint32_t>(routes_.size())).first;
        return r->second;
    }

    std::uint32_t routes(std::size_t links) const {
        return spec_.identity.bind_prefix ? static_cast<std::uint32_t>(links) : static_cast<std::uint32_t>(routes_.size());
    }

private:
    const LoadSpec& spec_;
    Plan& plan_;
    asio::io_context ioc_;
    std::map<std::tuple<bool, std::string, std::uint16_t>, std::uint32_t> origins_;
    std::map<std::tuple<tcp::endpoint, std::string, bool>, std::uint32_t> routes_;
};

}  // namespace

RequestParts request_parts(const LoadSpec& spec, std::size_t k) {
    const auto url = parsed_url(spec.links.url(k));
    return {spec.links.shape(k).method, url.target, url.authority(), xff_of(xff_pattern(spec), k, spec.links.size())};
}

// Two passes: the first checks every link and sizes its request, the second
// writes the requests into one buffer of exactly their size.
Plan prepare_plan(const LoadSpec& spec) {
    check_spec(spec);
    const std::optional<LinkPattern> xff = xff_pattern(spec);
    const std::uint64_t n = spec.links.size();
    if (n > UINT32_MAX) throw LoadSpecError("more than 4294967295 links");
    auto request_of = [&](std::size_t k, const host::http::Url& url) {
        return build_request(spec, spec.links.shape(k), url.target, url.authority(), xff_of(xff, k, n));
    };
    Plan plan;
    PlanBuilder builder(spec, plan);
    plan.links.reserve(spec.links.size());
    std::size_t request_bytes = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const LinkShape& shape = spec.links.shape(k);
        const std::string_view text = spec.links.url(k);
        if (!is_token(shape.method)) throw LoadSpecError("method '" + shape.method + "' is not a valid HTTP token");
        for (const auto& h : shape.headers) check_header(h);
        const auto url = parsed_url(text);
        PreparedLink p;
        p.origin = builder.origin(url, text);
        p.tls = plan.origins[p.origin].tls;
        p.head = shape.method == "HEAD";
        if (spec.identity.bind_prefix) p.source_v4 = bind_address(*spec.identity.bind_prefix, k).to_uint();
        p.route = builder.route(p.origin, k);
        p.request_bytes = static_cast<std::uint32_t>(request_of(k, url).size());
        request_bytes += p.request_bytes;
        plan.any_tls = plan.any_tls || p.tls;
        plan.links.push_back(p);
    }
    if (request_bytes > UINT32_MAX) throw LoadSpecError("the links' requests come to more than 4 GiB");
    plan.requests.reserve(request_bytes);
    for (std::size_t k = 0; k < n; ++k) {
        plan.links[k].request_at = static_cast<std::uint32_t>(plan.requests.size());
        plan.requests += request_of(k, parsed_url(spec.links.url(k)));
    }
    plan.routes = builder.routes(plan.links.size());
    return plan;
}

}  // namespace stand::load
