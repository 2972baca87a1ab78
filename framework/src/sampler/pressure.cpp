#include "sampler/pressure.hpp"

#include "box/cgroup_text.hpp"
#include "text/trim.hpp"

#include <charconv>

namespace stand::sampler {
namespace {

std::string_view field(std::string_view line, std::string_view key) {
    auto at = line.find(key);
    if (at == std::string_view::npos || (at > 0 && line[at - 1] != ' ')) return {};
    auto value = line.substr(at + key.size());
    return value.substr(0, value.find(' '));
}

}  // namespace

Pressure parse_pressure_some(std::string_view text) {
    Pressure p;
    std::string_view line;
    while (!text.empty()) {
        auto eol = text.find('\n');
        auto l = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        if (l.substr(0, 5) == "some ") {
            line = l;
            break;
        }
    }
    if (line.empty()) return p;
    auto avg10 = text::trim(field(line, "avg10="));
    double v = 0;
    auto [end, ec] = std::from_chars(avg10.data(), avg10.data() + avg10.size(), v);
    if (!avg10.empty() && ec == std::errc() && end == avg10.data() + avg10.size()) p.some_avg10 = v;
    p.some_total_us = box::parse_u64(field(line, "total="));
    return p;
}

}  // namespace stand::sampler
