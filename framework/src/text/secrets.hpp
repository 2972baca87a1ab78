// The process's secrets: every value the host learns is a secret (a config
// field its plugin's schema marks "writeOnly", a value a plugin marks through
// stand.secrets/1, a subscription link's token) is added here, and whatever
// the host writes or prints (stdout, logs, JUnit, run files, reports) passes
// through scrub() first. One registry for the process, because a secret
// learnt in one place (a worker's reply) must be hidden in every other (a
// log line of the same run).
#pragma once

#include <stand/service/secrets.h>

#include <boost/json/value.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace stand::text {

// What stands where a secret was.
inline constexpr std::string_view kRedacted = "<redacted>";

class Secrets {
public:
    // Shorter values are not scrubbed as substrings (they would cut words
    // apart); a schema-marked config field is still redacted as a whole.
    static constexpr std::size_t kMinLength = STAND_SECRET_MIN_LENGTH;

    // Thread-safe; a value already known or shorter than kMinLength is
    // ignored. A value that is not secret-shaped (not_secret_shaped) is
    // refused: the reason is returned ("" otherwise) and nothing is hidden.
    std::string add(std::string_view secret);
    // Every string of `value` (an array's, an object's values), at any depth;
    // values that are not secret-shaped are skipped.
    void add_all(const boost::json::value& value);
    // Why `value` cannot be a secret, "" when it can: a value every run
    // writes in the open, so hiding it would erase it wherever it stands,
    // secret or not (an X-Forwarded-For header's 127.0.0.1 once turned every
    // address of a run into kRedacted). That is an IP address (v4, v6,
    // bracketed, with or without a port), a port or count (up to five
    // digits), or a word of protocols and configs (localhost, http, https,
    // true, false, null, none). A value that contains one is fine.
    static std::string not_secret_shaped(std::string_view value);
    // `text` with every known secret replaced by kRedacted, in one pass from
    // the left; where several start at one place, the longest wins.
    std::string scrub(std::string_view text) const;
    // The same over every string (and object key) of a JSON value.
    boost::json::value scrub_json(const boost::json::value& value) const;
    bool empty() const;
    // Forgets every secret (tests only).
    void clear();

private:
    // The secrets by their first kMinLength bytes, then by length (longest
    // first), then as a set: a scrub costs a few lookups per byte of text
    // however many secrets share a prefix (a storm's thousand "/sub/..."
    // tokens). Every view points into secrets_, whose strings never move.
    using SameLength = std::unordered_set<std::string_view>;
    using Bucket = std::map<std::size_t, SameLength, std::greater<>>;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<const std::string>> secrets_;
    std::unordered_map<std::string_view, Bucket> by_prefix_;
};

// The process's registry.
Secrets& secrets();

}  // namespace stand::text
