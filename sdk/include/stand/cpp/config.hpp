// stand C++ helpers: strict reading of a plugin's JSON config.
//
//   ConfigReader cfg(config);
//   auto port = cfg.integer("port", 8080);
//   auto bin = cfg.string("binary", "/usr/sbin/nginx");
//   cfg.finish();  // unknown keys are an error that names them
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <set>
#include <string>

#include "error.hpp"

namespace stand::cpp {

class ConfigReader {
public:
    explicit ConfigReader(const boost::json::object& config, std::string path = "config")
        : config_(config), path_(std::move(path)) {}

    std::string string(const char* key, const std::string& fallback) {
        const boost::json::value* v = find(key);
        if (v == nullptr) return fallback;
        if (!v->is_string()) fail(key, "a string");
        return std::string(v->get_string());
    }

    std::int64_t integer(const char* key, std::int64_t fallback, std::int64_t min = INT64_MIN,
                         std::int64_t max = INT64_MAX) {
        const boost::json::value* v = find(key);
        if (v == nullptr) return fallback;
        std::int64_t n = 0;
        if (v->is_int64()) n = v->get_int64();
        else if (v->is_uint64() && v->get_uint64() <= INT64_MAX) n = static_cast<std::int64_t>(v->get_uint64());
        else fail(key, "an integer");
        if (n < min || n > max)
            throw ConfigError(path_ + "." + key + ": " + std::to_string(n) + " is out of range [" +
                              std::to_string(min) + ", " + std::to_string(max) + "]");
        return n;
    }

    bool boolean(const char* key, bool fallback) {
        const boost::json::value* v = find(key);
        if (v == nullptr) return fallback;
        if (!v->is_bool()) fail(key, "true or false");
        return v->get_bool();
    }

    const boost::json::object* object(const char* key) {
        const boost::json::value* v = find(key);
        if (v == nullptr) return nullptr;
        if (!v->is_object()) fail(key, "an object");
        return &v->get_object();
    }

    const boost::json::array* array(const char* key) {
        const boost::json::value* v = find(key);
        if (v == nullptr) return nullptr;
        if (!v->is_array()) fail(key, "an array");
        return &v->get_array();
    }

    // True when the key is present as JSON null ("back to the default"); marks it read.
    bool null(const char* key) {
        const boost::json::value* v = find(key);
        return v != nullptr && v->is_null();
    }

    // Throws naming the first key that was never read.
    void finish() const {
        for (const auto& kv : config_)
            if (read_.count(std::string(kv.key())) == 0)
                throw ConfigError(path_ + "." + std::string(kv.key()) + ": unknown key");
    }

private:
    const boost::json::value* find(const char* key) {
        read_.insert(key);
        return config_.if_contains(key);
    }
    [[noreturn]] void fail(const char* key, const char* expected) const {
        throw ConfigError(path_ + "." + key + ": expected " + expected);
    }

    const boost::json::object& config_;
    std::string path_;
    std::set<std::string> read_;
};

// Parses create()'s config text; anything but a JSON object is a ConfigError.
inline boost::json::object parse_config(const char* text, std::size_t size) {
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(boost::json::string_view(text ? text : "", text ? size : 0), ec);
    if (ec) throw ConfigError("config is not valid JSON: " + ec.message());
    if (!v.is_object()) throw ConfigError("config must be a JSON object");
    return std::move(v.get_object());
}

}  // namespace stand::cpp
