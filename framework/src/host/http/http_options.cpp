#include "host/http/http_options.hpp"

#include "host/http/body_codec.hpp"

#include <stand/cpp/error.hpp>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <limits>
#include <string_view>

namespace stand::host::http {
namespace {

namespace json = boost::json;

[[noreturn]] void invalid(std::string message) {
    throw cpp::Error(STAND_E_INVALID_ARGUMENT, std::move(message));
}

void reject_unknown(const json::object& o, std::initializer_list<std::string_view> known,
                    std::string_view what) {
    for (const auto& kv : o)
        if (std::find(known.begin(), known.end(), kv.key()) == known.end())
            invalid("unknown " + std::string(what) + " key '" + std::string(kv.key()) + "'");
}

bool read_bool(const json::value& v, std::string_view what, std::string_view key) {
    if (!v.is_bool())
        invalid(std::string(what) + " '" + std::string(key) + "' must be true or false");
    return v.get_bool();
}

std::int64_t read_int(const json::value& v, std::string_view what, std::string_view key,
                      std::int64_t min) {
    constexpr std::int64_t max = std::numeric_limits<int>::max();
    const bool ok = (v.is_int64() && v.get_int64() >= min && v.get_int64() <= max) ||
                    (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(max) &&
                     static_cast<std::int64_t>(v.get_uint64()) >= min);
    if (!ok)
        invalid(std::string(what) + " '" + std::string(key) + "' must be an integer from " +
                std::to_string(min) + " to " + std::to_string(max));
    return v.is_int64() ? v.get_int64() : static_cast<std::int64_t>(v.get_uint64());
}

const json::string& read_string(const json::value& v, std::string_view what,
                                std::string_view key) {
    if (!v.is_string()) invalid(std::string(what) + " '" + std::string(key) + "' must be a string");
    return v.get_string();
}

bool is_token(std::string_view s) {
    static constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u < 0x80 && std::isalnum(u)) || extra.find(c) != std::string_view::npos;
    });
}

bool is_field_value(std::string_view s) {
    return s.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

void read_headers(const json::value& v, RequestSpec& out) {
    if (!v.is_object()) invalid("http request 'headers' must be an object of strings");
    for (const auto& kv : v.get_object()) {
        const std::string name(kv.key());
        const std::string field = "header '" + name + "'";
        if (!is_token(name)) invalid("http request " + field + " is not a valid header name");
        if (boost::algorithm::iequals(name, "content-length") ||
            boost::algorithm::iequals(name, "transfer-encoding"))
            invalid("http request " + field + " is set by the host, do not pass it");
        const json::string& value = read_string(kv.value(), "http request", field);
        if (!is_field_value(value)) invalid("http request " + field + " contains CR, LF or NUL");
        out.headers.emplace_back(name, std::string(value));
    }
}

void read_form(const json::value& v, RequestSpec& out) {
    if (!v.is_object()) invalid("http request 'form' must be an object of strings");
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& kv : v.get_object())
        fields.emplace_back(std::string(kv.key()),
                            std::string(read_string(kv.value(), "http request form field",
                                                    kv.key())));
    out.body = form_urlencode(fields);
    out.content_type = "application/x-www-form-urlencoded";
}

}  // namespace

SessionOptions parse_session_options(const json::object& options) {
    static constexpr std::string_view what = "http session option";
    reject_unknown(options,
                   {"insecure_tls", "ca_file", "follow_redirects", "timeout_ms", "max_429_waits",
                    "max_retry_after_ms", "cookies"},
                   what);
    using std::chrono::milliseconds;
    SessionOptions out;
    for (const auto& kv : options) {
        const std::string_view key = kv.key();
        const json::value& v = kv.value();
        if (key == "insecure_tls")
            out.insecure_tls = read_bool(v, what, key);
        else if (key == "ca_file")
            out.ca_file = std::string(read_string(v, what, key));
        else if (key == "follow_redirects")
            out.follow_redirects = read_bool(v, what, key);
        else if (key == "timeout_ms")
            out.timeout = milliseconds{read_int(v, what, key, 1)};
        else if (key == "max_429_waits")
            out.max_429_waits = static_cast<int>(read_int(v, what, key, 0));
        else if (key == "max_retry_after_ms")
            out.max_retry_after = milliseconds{read_int(v, what, key, 0)};
        else if (key == "cookies")
            out.cookies = read_bool(v, what, key);
    }
    if (options.contains("ca_file") && out.ca_file.empty())
        invalid("http session option 'ca_file' must not be empty");
    return out;
}

RequestSpec parse_request(const json::object& request) {
    static constexpr std::string_view what = "http request";
    reject_unknown(
        request, {"method", "url", "headers", "json", "form", "body", "timeout_ms", "label"}, what);
    const int bodies = static_cast<int>(request.contains("json")) +
                       static_cast<int>(request.contains("form")) +
                       static_cast<int>(request.contains("body"));
    if (bodies > 1) invalid("http request takes at most one of 'json', 'form' and 'body'");
    const json::value* method = request.if_contains("method");
    const json::value* url = request.if_contains("url");
    if (method == nullptr) invalid("http request lacks 'method'");
    if (url == nullptr) invalid("http request lacks 'url'");

    RequestSpec out;
    out.method = std::string(read_string(*method, what, "method"));
    if (!is_token(out.method))
        invalid("http request 'method' '" + out.method + "' is not a valid method");
    out.url = parse_url(read_string(*url, what, "url"), "http request 'url'");
    for (const auto& kv : request) {
        const std::string_view key = kv.key();
        const json::value& v = kv.value();
        if (key == "headers") {
            read_headers(v, out);
        } else if (key == "form") {
            read_form(v, out);
        } else if (key == "body") {
            out.body = std::string(read_string(v, what, key));
        } else if (key == "timeout_ms") {
            out.timeout = std::chrono::milliseconds{read_int(v, what, key, 1)};
        } else if (key == "label") {
            out.label = std::string(read_string(v, what, key));
        } else if (key == "json") {
            out.body = json::serialize(v);
            out.content_type = "application/json";
        }
    }
    out.has_body = bodies == 1;
    if (out.label.empty()) out.label = out.method + " " + out.url.path;
    return out;
}

}  // namespace stand::host::http
