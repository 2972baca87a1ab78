#include "box/cpu_list.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"
#include "text/trim.hpp"

#include <charconv>

namespace stand::box {
namespace {

std::optional<unsigned> parse_cpu(std::string_view s) {
    unsigned v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v > 65535) return std::nullopt;
    return v;
}

}  // namespace

std::optional<CpuSet> parse_cpu_list(std::string_view list) {
    CpuSet out;
    list = text::trim(list);
    while (!list.empty()) {
        auto comma = list.find(',');
        std::string_view item = text::trim(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        auto dash = item.find('-');
        auto first = parse_cpu(item.substr(0, dash));
        auto last = dash == std::string_view::npos ? first : parse_cpu(item.substr(dash + 1));
        if (!first || !last || *last < *first) return std::nullopt;
        for (unsigned c = *first; c <= *last; ++c) out.insert(c);
    }
    return out;
}

std::string format_cpu_list(const CpuSet& cpus) {
    std::string out;
    for (auto it = cpus.begin(); it != cpus.end();) {
        unsigned first = *it, last = *it;
        while (++it != cpus.end() && *it == last + 1) last = *it;
        if (!out.empty()) out += ',';
        out += std::to_string(first);
        if (last != first) out += '-' + std::to_string(last);
    }
    return out;
}

std::optional<CpuSet> online_cpus() {
    auto text = read_text("/sys/devices/system/cpu/online");
    if (!text) return std::nullopt;
    return parse_cpu_list(*text);
}

}  // namespace stand::box
