#include "load/duration.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace stand::load {

std::chrono::nanoseconds parse_duration(std::string_view text, std::string_view what, bool allow_zero) {
    auto bad = [&](const char* why) -> std::invalid_argument {
        return std::invalid_argument(std::string(what) + ": '" + std::string(text) + "' " + why +
                                     " (examples: 10s, 500ms, 1m, 250us)");
    };
    std::size_t i = 0;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    if (i == 0) throw bad("is not a duration");
    const std::string number(text.substr(0, i));
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !std::isfinite(value)) throw bad("is not a duration");
    const std::string_view unit = text.substr(i);
    double scale = 0;
    if (unit.empty() || unit == "s") scale = 1e9;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "us" || unit == "µs") scale = 1e3;
    else if (unit == "ns") scale = 1;
    else if (unit == "m" || unit == "min") scale = 60e9;
    else if (unit == "h") scale = 3600e9;
    else throw bad("has an unknown unit");
    const double ns = value * scale;
    if (ns > 86400e9) throw bad("is longer than a day");
    if (ns < 1 && !(allow_zero && ns == 0)) throw bad(allow_zero ? "is negative" : "must be positive");
    return std::chrono::nanoseconds(static_cast<long long>(std::llround(ns)));
}

std::string format_duration(std::chrono::nanoseconds d) {
    const long long ns = d.count();
    struct Unit {
        long long size;
        const char* name;
    };
    for (const Unit u : {Unit{3600'000'000'000LL, "h"}, Unit{60'000'000'000LL, "m"},
                         Unit{1'000'000'000LL, "s"}, Unit{1'000'000LL, "ms"}, Unit{1'000LL, "us"}})
        if (ns >= u.size && ns % u.size == 0) return std::to_string(ns / u.size) + u.name;
    if (ns >= 1'000'000'000LL) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3gs", static_cast<double>(ns) / 1e9);
        return buf;
    }
    return std::to_string(ns) + "ns";
}

}  // namespace stand::load
