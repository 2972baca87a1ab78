#include "sampler/proc_text.hpp"

#include "box/cgroup_text.hpp"
#include "text/trim.hpp"

namespace stand::sampler {

using box::parse_u64;

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
    auto close = text.rfind(')');
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view rest = text.substr(close + 1);
    // After "(comm)" token 0 is field 3 (state): ppid is field 4, utime..cstime are 14..17.
    std::uint64_t values[18] = {};
    for (int field = 3; field <= 17 && !rest.empty(); ++field) {
        rest = text::trim(rest);
        auto end = rest.find(' ');
        if (field >= 4) values[field] = parse_u64(rest.substr(0, end)).value_or(0);
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end);
    }
    return ProcStat{static_cast<pid_t>(values[4]), values[14] + values[15] + values[16] + values[17]};
}

std::optional<std::uint64_t> status_kb(std::string_view text, std::string_view key) {
    auto at = text.find(key);
    while (at != std::string_view::npos && at != 0 && text[at - 1] != '\n') at = text.find(key, at + 1);
    if (at == std::string_view::npos) return std::nullopt;
    auto value = text.substr(at + key.size());
    value = value.substr(0, value.find('\n'));
    auto unit = value.find("kB");
    auto n = parse_u64(value.substr(0, unit));
    if (!n) return std::nullopt;
    return unit == std::string_view::npos ? *n : *n * 1024;
}

}  // namespace stand::sampler
