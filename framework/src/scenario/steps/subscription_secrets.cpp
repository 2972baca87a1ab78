#include "scenario/steps/subscription_secrets.hpp"

#include "text/secrets.hpp"

#include <boost/algorithm/string/case_conv.hpp>
#include <boost/json.hpp>

#include <string>

namespace stand::scenario::steps {

// A panel behind a proxy is told X-Forwarded-For 127.0.0.1 and
// X-Forwarded-Proto https: values every run writes elsewhere in the open.
bool describes_client(std::string_view header) {
    const std::string h = boost::algorithm::to_lower_copy(std::string(header));
    if (h.starts_with("x-forwarded-") || h.starts_with("accept")) return true;
    for (const char* name : {"user-agent", "forwarded", "x-real-ip", "host", "content-type", "connection",
                             "cache-control", "pragma", "referer", "origin"})
        if (h == name) return true;
    return false;
}

// A subscription URL's path and query are its bearer token, as are its
// other headers' values: hidden wherever the host writes them.
void mark_subscription_secrets(const boost::json::object& subscription) {
    if (const auto* url = subscription.if_contains("url"); url && url->is_string()) {
        const std::string_view u = url->get_string();
        const auto scheme_end = u.find("://");
        const auto path = u.find('/', scheme_end == std::string_view::npos ? 0 : scheme_end + 3);
        if (path != std::string_view::npos && u.size() - path > 1) text::secrets().add(u.substr(path));
    }
    if (const auto* headers = subscription.if_contains("headers"); headers && headers->is_object())
        for (const auto& [name, value] : headers->get_object())
            if (value.is_string() && !describes_client(name)) text::secrets().add(value.get_string());
}

}  // namespace stand::scenario::steps
