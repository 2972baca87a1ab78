#include "host/http/describe_exchange.hpp"

#include "host/http/body_shape.hpp"

#include <boost/algorithm/string/trim.hpp>
#include <boost/beast/http/field.hpp>

#include <algorithm>
#include <cctype>

namespace stand::host::http {
namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

const std::set<std::string>& recorded_headers() {
    static const std::set<std::string> names{"location", "retry-after", "www-authenticate", "x-csrf-token"};
    return names;
}

std::string media_type(std::string_view content_type) {
    return lower(boost::algorithm::trim_copy(content_type.substr(0, content_type.find(';'))));
}

std::string cookie_name(std::string_view set_cookie) {
    const auto pair = set_cookie.substr(0, set_cookie.find(';'));
    return boost::algorithm::trim_copy(std::string(pair.substr(0, pair.find('='))));
}

ExchangeRecord describe_exchange(std::string label, std::string method, std::string path, const Response& response) {
    ExchangeRecord r{std::move(label), std::move(method), std::move(path), static_cast<int>(response.result_int()),
                     {}, {}, {}, {}};
    for (const auto& field : response) {
        const std::string name = lower(field.name_string());
        if (name == "content-type") r.content_type = media_type(field.value());
        else if (name == "set-cookie") r.cookies.insert(cookie_name(field.value()));
        else if (recorded_headers().contains(name)) r.headers.insert(name);
    }
    r.body = body_shape(response.body(), r.content_type);
    return r;
}

}  // namespace stand::host::http
