#include "text/secrets.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace stand::text {

namespace json = boost::json;

namespace {

std::string scrub_locked(std::string_view text, const std::vector<std::string>& secrets) {
    std::string out(text);
    for (const auto& s : secrets) {
        for (std::size_t at = out.find(s); at != std::string::npos; at = out.find(s, at + kRedacted.size()))
            out.replace(at, s.size(), kRedacted);
    }
    return out;
}

json::value scrub_value(const json::value& v, const std::vector<std::string>& secrets) {
    switch (v.kind()) {
    case json::kind::string:
        return json::value(scrub_locked(v.get_string(), secrets));
    case json::kind::array: {
        json::array out;
        out.reserve(v.get_array().size());
        for (const auto& e : v.get_array()) out.push_back(scrub_value(e, secrets));
        return out;
    }
    case json::kind::object: {
        json::object out;
        out.reserve(v.get_object().size());
        for (const auto& [k, e] : v.get_object()) out[scrub_locked(k, secrets)] = scrub_value(e, secrets);
        return out;
    }
    default:
        return v;
    }
}

}  // namespace

void Secrets::add(std::string_view secret) {
    if (secret.size() < kMinLength) return;
    std::lock_guard lock(mutex_);
    if (std::find(secrets_.begin(), secrets_.end(), secret) != secrets_.end()) return;
    auto at = std::find_if(secrets_.begin(), secrets_.end(), [&](const std::string& s) { return s.size() < secret.size(); });
    secrets_.insert(at, std::string(secret));
}

void Secrets::add_all(const json::value& value) {
    if (value.is_string()) add(value.get_string());
    else if (value.is_array()) for (const auto& e : value.get_array()) add_all(e);
    else if (value.is_object()) for (const auto& [k, e] : value.get_object()) add_all(e);
}

std::string Secrets::scrub(std::string_view text) const {
    std::lock_guard lock(mutex_);
    if (secrets_.empty()) return std::string(text);
    return scrub_locked(text, secrets_);
}

json::value Secrets::scrub_json(const json::value& value) const {
    std::lock_guard lock(mutex_);
    if (secrets_.empty()) return value;
    return scrub_value(value, secrets_);
}

bool Secrets::empty() const {
    std::lock_guard lock(mutex_);
    return secrets_.empty();
}

void Secrets::clear() {
    std::lock_guard lock(mutex_);
    secrets_.clear();
}

Secrets& secrets() {
    static Secrets registry;
    return registry;
}

}  // namespace stand::text
