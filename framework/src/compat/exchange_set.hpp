// The exchanges of a recording (tests/data/real-panels/*/recording.json),
// unique by (label, method, path, status) and sorted by that key:
//   {"label", "method", "path", "status",
//    "response": {"content_type", "cookies", "headers", "body"}, "checks": [...]}
// When one key was answered differently, the responses merge: cookie and
// header names unite, body shapes merge (merge_shapes), differing content
// types become "a|b"; "checks" unites where the key was seen.
#pragma once

#include <boost/json.hpp>

#include <map>
#include <string>
#include <tuple>

namespace stand::compat {

class ExchangeSet {
public:
    // Throws std::runtime_error naming the missing or mistyped member.
    void add(const boost::json::object& exchange);
    boost::json::array sorted() const;
    std::size_t size() const { return by_key_.size(); }

private:
    using Key = std::tuple<std::string, std::string, std::string, std::int64_t>;
    std::map<Key, boost::json::object> by_key_;
};

}  // namespace stand::compat
