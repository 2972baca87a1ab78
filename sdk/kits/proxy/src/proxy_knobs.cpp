#include <stand/kits/proxy/proxy_knobs.hpp>

#include <stand/cpp/config.hpp>

#include <regex>

namespace stand_proxy_kit {
namespace {

using stand::cpp::ConfigError;
namespace json = boost::json;

std::string checked_host(stand::cpp::ConfigReader& r, const std::string& path, const std::string& fallback) {
    std::string host = r.string("host", fallback);
    static const std::regex kHost("[A-Za-z0-9.:-]{1,253}");
    if (!std::regex_match(host, kHost))
        throw ConfigError(path + ".host: expected a host name or IP address (letters, digits, '.', '-', ':')");
    return host;
}

std::vector<Upstream> read_upstreams(const json::array& ups) {
    std::vector<Upstream> out;
    for (std::size_t i = 0; i < ups.size(); ++i) {
        const std::string path = "knobs.upstreams[" + std::to_string(i) + "]";
        if (!ups[i].is_object()) throw ConfigError(path + ": expected an object {host, port}");
        stand::cpp::ConfigReader r(ups[i].as_object(), path);
        Upstream u;
        u.host = checked_host(r, path, "127.0.0.1");
        const auto port = r.integer("port", 0, 0, 65535);
        if (port == 0) throw ConfigError(path + ".port: required (1-65535)");
        u.port = static_cast<std::uint16_t>(port);
        r.finish();
        out.push_back(std::move(u));
    }
    return out;
}

}  // namespace

ProxyKnobs apply_proxy_knobs(const json::object& knobs, ProxyKnobs next) {
    stand::cpp::ConfigReader k(knobs, "knobs");
    if (const auto* listen = k.object("listen")) {
        stand::cpp::ConfigReader l(*listen, "knobs.listen");
        next.listen_host = checked_host(l, "knobs.listen", next.listen_host);
        next.listen_port = static_cast<std::uint16_t>(l.integer("port", next.listen_port, 1, 65535));
        next.tls = l.boolean("tls", next.tls);
        l.finish();
    }
    if (const auto* key = k.object("tls_key")) {
        stand::cpp::ConfigReader t(*key, "knobs.tls_key");
        next.cert_file = t.string("cert_file", "");
        next.key_file = t.string("key_file", "");
        t.finish();
        if (next.cert_file.empty() || next.key_file.empty())
            throw ConfigError("knobs.tls_key: needs both cert_file and key_file");
    }
    if (next.tls && next.cert_file.empty())
        throw ConfigError("knobs.listen.tls: needs knobs.tls_key {cert_file, key_file}");
    if (const auto* ups = k.array("upstreams")) next.upstreams = read_upstreams(*ups);
    if (k.null("upstream_keepalive")) {
        next.upstream_keepalive.reset();  // back to the proxy's default
    } else if (knobs.contains("upstream_keepalive")) {
        next.upstream_keepalive = k.boolean("upstream_keepalive", false);
    }
    next.websocket = k.boolean("websocket", next.websocket);
    next.workers = k.integer("workers", next.workers, 1, 64);
    if (k.null("max_connections")) {
        next.max_connections.reset();
    } else if (knobs.contains("max_connections")) {
        next.max_connections = k.integer("max_connections", 0, 1, 10000000);
    }
    k.finish();
    return next;
}

json::object proxy_endpoint(const ProxyKnobs& k, const std::vector<std::string>& tls_alpn) {
    json::object e{{"scheme", k.tls ? "https" : "http"}, {"host", k.listen_host}, {"port", k.listen_port}};
    if (k.tls) {
        json::array alpn;
        for (const auto& a : tls_alpn) alpn.emplace_back(a);
        e["alpn"] = std::move(alpn);
    }
    return e;
}

std::string proxy_base_url(const ProxyKnobs& k) {
    const bool v6 = k.listen_host.find(':') != std::string::npos;
    return std::string(k.tls ? "https" : "http") + "://" + (v6 ? "[" + k.listen_host + "]" : k.listen_host) + ":" +
           std::to_string(k.listen_port);
}

json::object proxy_readiness(const ProxyKnobs& k) {
    json::object r{{"method", "GET"}, {"url", proxy_base_url(k) + "/"}, {"expect_status", json::array{200}},
                   {"per_try_timeout_ms", 2000}};
    if (k.tls) r["insecure_tls"] = true;
    return r;
}

}  // namespace stand_proxy_kit
