#include "host/http/cookie_jar.hpp"

#include "host/http/http_date.hpp"
#include "host/http/target_resolver.hpp"
#include "text/trim.hpp"

#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <charconv>
#include <optional>

namespace stand::host::http {
namespace {

// RFC 6265 5.1.4: the directory of the request path.
std::string default_path(std::string_view request_path) {
    const auto q = request_path.find('?');
    if (q != std::string_view::npos) request_path = request_path.substr(0, q);
    if (request_path.empty() || request_path.front() != '/') return "/";
    const auto slash = request_path.rfind('/');
    return slash == 0 ? "/" : std::string(request_path.substr(0, slash));
}

// RFC 6265 5.1.4 path-match.
bool path_matches(std::string_view request_path, std::string_view cookie_path) {
    const auto q = request_path.find('?');
    if (q != std::string_view::npos) request_path = request_path.substr(0, q);
    if (!request_path.starts_with(cookie_path)) return false;
    return request_path.size() == cookie_path.size() || cookie_path.back() == '/' ||
           request_path[cookie_path.size()] == '/';
}

// Browsers treat loopback as a secure context; test panels often run plain http there.
bool loopback_host(const std::string& host) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(host, ec);
    return host == "localhost" || (!ec && is_loopback(address));
}

}  // namespace

void CookieJar::store(std::string_view host, std::string_view request_path,
                      std::string_view set_cookie, bool secure_channel, Clock::time_point now) {
    std::string_view rest = set_cookie;
    const auto semi = rest.find(';');
    const std::string_view pair = rest.substr(0, semi);
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos) return;
    Cookie c;
    c.host = std::string(host);
    c.name = std::string(text::trim(pair.substr(0, eq)));
    c.value = std::string(text::trim(pair.substr(eq + 1)));
    if (c.name.empty()) return;
    c.path = default_path(request_path);

    std::optional<Clock::time_point> max_age_expiry, expires_expiry;
    while (!rest.empty()) {
        const auto next = rest.find(';');
        const std::string_view attr = rest.substr(0, next);
        rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
        const auto aeq = attr.find('=');
        const std::string_view key = text::trim(attr.substr(0, aeq));
        const std::string_view val =
            aeq == std::string_view::npos ? std::string_view{} : text::trim(attr.substr(aeq + 1));
        if (boost::algorithm::iequals(key, "max-age")) {
            long long seconds = 0;
            const bool negative = val.starts_with('-');
            const std::string_view digits = negative ? val.substr(1) : val;
            const auto [end, ec] =
                std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
            if (digits.empty() || end != digits.data() + digits.size()) continue;
            // RFC 6265bis caps lifetimes at 400 days; it also keeps time_point from overflowing.
            constexpr long long cap = 400LL * 86400;
            if (ec == std::errc::result_out_of_range || seconds > cap) seconds = cap;
            max_age_expiry = negative || seconds == 0 ? Clock::time_point::min()
                                                      : now + std::chrono::seconds{seconds};
        } else if (boost::algorithm::iequals(key, "expires")) {
            if (const auto when = parse_http_date(val)) expires_expiry = *when;
        } else if (boost::algorithm::iequals(key, "path")) {
            if (val.starts_with('/')) c.path = std::string(val);
        } else if (boost::algorithm::iequals(key, "secure")) {
            c.secure = true;
        }
    }
    if (max_age_expiry || expires_expiry) {
        c.expires = true;
        c.expiry = max_age_expiry ? *max_age_expiry : *expires_expiry;
    }

    const auto same = std::find_if(cookies_.begin(), cookies_.end(), [&](const Cookie& o) {
        return o.host == c.host && o.path == c.path && o.name == c.name;
    });
    const bool expired = c.expires && c.expiry <= now;
    if (same != cookies_.end()) {
        if (expired)
            cookies_.erase(same);
        else
            *same = std::move(c);
    } else if (!expired && (!c.secure || secure_channel || loopback_host(c.host))) {
        cookies_.push_back(std::move(c));
    }
}

std::string CookieJar::header_for(std::string_view host, std::string_view request_path,
                                  bool secure_channel, Clock::time_point now) {
    std::erase_if(cookies_, [&](const Cookie& c) { return c.expires && c.expiry <= now; });
    std::string out;
    for (const Cookie& c : cookies_) {
        if (c.host != host || !path_matches(request_path, c.path)) continue;
        if (c.secure && !secure_channel && !loopback_host(c.host)) continue;
        if (!out.empty()) out += "; ";
        out += c.name + "=" + c.value;
    }
    return out;
}

}  // namespace stand::host::http
