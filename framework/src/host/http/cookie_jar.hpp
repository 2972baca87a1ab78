// A session's cookies: host-only (the request host), path-scoped, with
// Max-Age/Expires honoured. Enough for admin panels' session cookies.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace stand::host::http {

class CookieJar {
public:
    using Clock = std::chrono::system_clock;

    // Applies one Set-Cookie header value received from `host` for `request_path`.
    void store(std::string_view host, std::string_view request_path, std::string_view set_cookie,
               bool secure_channel, Clock::time_point now = Clock::now());

    // The Cookie header value for a request, empty when nothing matches.
    std::string header_for(std::string_view host, std::string_view request_path,
                           bool secure_channel, Clock::time_point now = Clock::now());

    std::size_t size() const { return cookies_.size(); }

private:
    struct Cookie {
        std::string host, path, name, value;
        bool secure = false;
        bool expires = false;
        Clock::time_point expiry{};
    };
    std::vector<Cookie> cookies_;  // in creation order, as sent back
};

}  // namespace stand::host::http
