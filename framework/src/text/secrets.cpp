#include "text/secrets.hpp"

#include <boost/algorithm/string/case_conv.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <unordered_set>

namespace stand::text {

namespace json = boost::json;

namespace {

using ByPrefix = std::unordered_map<std::string_view, std::map<std::size_t, std::unordered_set<std::string_view>, std::greater<>>>;

std::string scrub_locked(std::string_view text, const ByPrefix& by_prefix) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t hit = 0;  // the length of the longest secret starting here
        if (text.size() - i >= Secrets::kMinLength) {
            if (auto it = by_prefix.find(text.substr(i, Secrets::kMinLength)); it != by_prefix.end())
                for (const auto& [length, same] : it->second)
                    if (length <= text.size() - i && same.contains(text.substr(i, length))) {
                        hit = length;
                        break;
                    }
        }
        if (hit != 0) {
            out += kRedacted;
            i += hit;
        } else {
            out += text[i++];
        }
    }
    return out;
}

json::value scrub_value(const json::value& v, const ByPrefix& by_prefix) {
    switch (v.kind()) {
    case json::kind::string:
        return json::value(scrub_locked(v.get_string(), by_prefix));
    case json::kind::array: {
        json::array out;
        out.reserve(v.get_array().size());
        for (const auto& e : v.get_array()) out.push_back(scrub_value(e, by_prefix));
        return out;
    }
    case json::kind::object: {
        json::object out;
        out.reserve(v.get_object().size());
        for (const auto& [k, e] : v.get_object()) out[scrub_locked(k, by_prefix)] = scrub_value(e, by_prefix);
        return out;
    }
    default:
        return v;
    }
}

}  // namespace

std::string Secrets::not_secret_shaped(std::string_view value) {
    const std::string lower = boost::algorithm::to_lower_copy(std::string(value));
    for (const char* word : {"localhost", "http", "https", "true", "false", "null", "none"})
        if (lower == word) return "a common word of protocols and configs";
    if (!value.empty() && value.size() <= 5 && std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }))
        return "a number (a port or a count)";
    std::string_view host = value;
    if (host.size() > 2 && host.front() == '[') {  // [v6] or [v6]:port
        const auto close = host.find(']');
        if (close == std::string_view::npos) return "";
        host = host.substr(1, close - 1);
    } else if (std::count(host.begin(), host.end(), ':') == 1) {  // v4:port
        host = host.substr(0, host.find(':'));
    }
    boost::system::error_code ec;
    boost::asio::ip::make_address(std::string(host), ec);
    return ec ? "" : "an IP address";
}

std::string Secrets::add(std::string_view secret) {
    if (secret.size() < kMinLength) return "";
    if (auto why = not_secret_shaped(secret); !why.empty()) return why;
    std::lock_guard lock(mutex_);
    if (auto it = by_prefix_.find(secret.substr(0, kMinLength)); it != by_prefix_.end())
        if (auto same = it->second.find(secret.size()); same != it->second.end() && same->second.contains(secret)) return "";
    secrets_.push_back(std::make_unique<const std::string>(secret));
    const std::string_view added = *secrets_.back();
    by_prefix_[added.substr(0, kMinLength)][added.size()].insert(added);
    return "";
}

void Secrets::add_all(const json::value& value) {
    if (value.is_string()) add(value.get_string());
    else if (value.is_array()) for (const auto& e : value.get_array()) add_all(e);
    else if (value.is_object()) for (const auto& [k, e] : value.get_object()) add_all(e);
}

std::string Secrets::scrub(std::string_view text) const {
    std::lock_guard lock(mutex_);
    if (secrets_.empty()) return std::string(text);
    return scrub_locked(text, by_prefix_);
}

json::value Secrets::scrub_json(const json::value& value) const {
    std::lock_guard lock(mutex_);
    if (secrets_.empty()) return value;
    return scrub_value(value, by_prefix_);
}

bool Secrets::empty() const {
    std::lock_guard lock(mutex_);
    return secrets_.empty();
}

void Secrets::clear() {
    std::lock_guard lock(mutex_);
    by_prefix_.clear();
    secrets_.clear();
}

Secrets& secrets() {
    static Secrets registry;
    return registry;
}

}  // namespace stand::text
