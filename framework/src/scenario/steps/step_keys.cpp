#include "scenario/steps/step_keys.hpp"

#include <cmath>

namespace stand::scenario::step_keys {

std::chrono::milliseconds to_ms(double seconds) { return std::chrono::milliseconds(std::llround(seconds * 1000)); }

Seconds duration(const ObjectReader& r) {
    return Seconds(expect_positive(r.require("duration_s", "a positive number"), r.at("duration_s"), kMaxDurationS));
}

std::optional<std::string> path(const ObjectReader& r, std::string_view key) {
    auto v = r.string(key);
    if (v && ((*v)[0] != '/' || v->find_first_of(" \t\r\n") != std::string::npos))
        r.at(key).fail("a path starting with '/' without spaces", r.find(key));
    return v;
}

}  // namespace stand::scenario::step_keys
