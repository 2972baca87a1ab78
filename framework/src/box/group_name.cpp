#include "box/group_name.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"
#include "text/trim.hpp"

#include <climits>
#include <cstdio>
#include <ctime>
#include <random>
#include <unistd.h>

namespace stand::box {

std::optional<std::uint64_t> process_start_ticks(pid_t pid) {
    auto stat = read_text("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return std::nullopt;
    auto close = stat->rfind(')');  // comm may contain spaces and parentheses
    if (close == std::string::npos) return std::nullopt;
    std::string_view rest = std::string_view(*stat).substr(close + 1);
    // After "(comm)": field 3 (state) is token 0, so field 22 is token 19.
    for (int token = 0; !rest.empty(); ++token) {
        rest = text::trim(rest);
        auto end = rest.find(' ');
        if (token == 19) return parse_u64(rest.substr(0, end));
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end);
    }
    return std::nullopt;
}

Owner current_owner() {
    Owner o;
    o.pid = ::getpid();
    o.start_ticks = process_start_ticks(o.pid).value_or(0);
    return o;
}

bool owner_alive(const Owner& owner) {
    auto start = process_start_ticks(owner.pid);
    return start && *start == owner.start_ticks;
}

namespace {

bool word_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

bool valid_group_word(std::string_view word) noexcept {
    if (word.empty() || word.size() > 64) return false;
    for (char c : word)
        if (!word_char(c)) return false;
    return true;
}

// The owner fields are parsed from the right, so dots in the id are fine.
bool valid_run_id(std::string_view id) noexcept {
    if (id.empty() || id.size() > 200 || id.front() == '.') return false;
    for (char c : id)
        if (!word_char(c) && c != '.') return false;
    return true;
}

std::string run_group_name(std::string_view run_id, const Owner& owner) {
    return std::string(run_id) + "." + std::to_string(owner.pid) + "." + std::to_string(owner.start_ticks);
}

std::optional<Owner> parse_run_group_name(std::string_view name) {
    auto second = name.rfind('.');
    if (second == std::string_view::npos || second == 0) return std::nullopt;
    auto first = name.rfind('.', second - 1);
    if (first == std::string_view::npos || !valid_run_id(name.substr(0, first))) return std::nullopt;
    auto pid = parse_u64(name.substr(first + 1, second - first - 1));
    auto start = parse_u64(name.substr(second + 1));
    if (!pid || !start || *pid == 0 || *pid > INT_MAX) return std::nullopt;
    return Owner{static_cast<pid_t>(*pid), *start};
}

std::string new_run_id() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    std::random_device rd;
    char suffix[8];
    std::snprintf(suffix, sizeof suffix, "%04x", static_cast<unsigned>(rd() & 0xffffU));
    return std::string(stamp) + "-" + suffix;
}

}  // namespace stand::box
