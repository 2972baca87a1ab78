#include "load/http3_request.hpp"

#include <algorithm>
#include <cctype>

namespace stand::load {
namespace {

std::string lower(const std::string& s) {
    std::string out = s;
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// RFC 9114 4.2: these make a request malformed in HTTP/3.
bool connection_specific(const std::string& name) {
    return name == "connection" || name == "keep-alive" || name == "proxy-connection" ||
           name == "transfer-encoding" || name == "upgrade" || name == "te";
}

}  // namespace

std::vector<quic::Http3Field> http3_fields(const LoadSpec& spec, std::size_t k) {
    const RequestParts link = request_parts(spec, k);
    std::vector<quic::Http3Field> regular;
    std::string authority = link.authority;
    auto set = [&](const std::string& name, const std::string& value) {
        std::string n = lower(name);
        if (n == "host") {
            authority = value;
            return;
        }
        if (connection_specific(n)) return;
        auto it = std::find_if(regular.begin(), regular.end(), [&](const quic::Http3Field& f) { return f.name == n; });
        if (it != regular.end()) it->value = value;
        else regular.push_back({n, value});
    };
    if (!spec.identity.user_agent.empty()) set("user-agent", spec.identity.user_agent);
    for (const auto& h : spec.identity.headers) set(h.first, h.second);
    const LinkShape& source = spec.links.shape(k);
    for (const auto& h : source.headers) set(h.first, h.second);
    if (!link.xff.empty()) set("x-forwarded-for", link.xff);
    if (!source.body.empty() || link.method == "POST" || link.method == "PUT" || link.method == "PATCH")
        set("content-length", std::to_string(source.body.size()));

    std::vector<quic::Http3Field> fields{
        {":method", link.method}, {":scheme", "https"}, {":authority", authority}, {":path", link.target}};
    fields.insert(fields.end(), regular.begin(), regular.end());
    return fields;
}

}  // namespace stand::load
