#include "host/http/url.hpp"

#include <stand/cpp/error.hpp>

#include <boost/url.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace stand::host::http {
namespace {

namespace urls = boost::urls;

[[noreturn]] void bad(std::string_view field, std::string_view text, std::string_view why) {
    throw cpp::Error(STAND_E_INVALID_ARGUMENT,
                     std::string(field) + " '" + std::string(text) + "' " + std::string(why));
}

std::uint16_t port_of(const urls::url_view& u, bool https, std::string_view field,
                      std::string_view text) {
    if (!u.has_port()) return https ? 443 : 80;
    const std::string_view digits = u.port();
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || value == 0 ||
        value > 65535)
        bad(field, text, "has an invalid port");
    return static_cast<std::uint16_t>(value);
}

Url from_view(const urls::url_view& u, std::string_view field, std::string_view text) {
    Url out;
    if (u.scheme_id() == urls::scheme::http)
        out.scheme = "http";
    else if (u.scheme_id() == urls::scheme::https)
        out.scheme = "https";
    else
        bad(field, text, "must use the http or https scheme");
    if (u.has_userinfo()) bad(field, text, "must not carry credentials");
    // Boost.URL 1.81 reads "http://127.0.0.1.nip.io:8080/" as the IPv4 host
    // 127.0.0.1 with the path ".nip.io:8080/" (the port lost); after an
    // authority a path starts with '/'.
    if (!u.encoded_path().empty() && u.encoded_path().front() != '/')
        bad(field, text,
            "has a host that is not an IP address or a name the URL parser reads whole (it stops at '" +
                std::string(u.encoded_host()) + "'); give the address, or a name that does not start with one");
    switch (u.host_type()) {
    case urls::host_type::ipv4:
    case urls::host_type::ipv6:
        out.host = u.host_address();
        out.host_is_ip = true;
        break;
    case urls::host_type::name:
        out.host = u.host_name();
        break;
    default:
        bad(field, text, "has no usable host");
    }
    if (out.host.empty()) bad(field, text, "has no host");
    std::transform(out.host.begin(), out.host.end(), out.host.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out.port = port_of(u, out.scheme == "https", field, text);
    out.path = u.encoded_path();
    if (out.path.empty()) out.path = "/";
    out.target = out.path;
    if (u.has_query()) out.target += "?" + std::string(u.encoded_query());
    urls::url copy(u);
    copy.remove_fragment();
    out.text = copy.buffer();
    return out;
}

}  // namespace

std::string Url::authority() const {
    std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    const bool default_port =
        (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
    return default_port ? h : h + ":" + std::to_string(port);
}

std::string Url::origin() const { return scheme + "://" + host + ":" + std::to_string(port); }

Url parse_url(std::string_view text, std::string_view field) {
    const auto parsed = urls::parse_uri(text);
    if (!parsed) bad(field, text, "is not a valid absolute URL");
    return from_view(*parsed, field, text);
}

Url resolve_url(const Url& base, std::string_view reference) {
    const auto ref = urls::parse_uri_reference(reference);
    if (!ref) bad("redirect Location", reference, "is not a valid URL");
    urls::url dest;
    const auto done = urls::resolve(urls::url_view(base.text), *ref, dest);
    if (!done) bad("redirect Location", reference, "cannot be resolved: " + done.error().message());
    return from_view(dest, "redirect Location", reference);
}

}  // namespace stand::host::http
