#include "sampler/group_tree.hpp"

#include "box/cgroup_text.hpp"
#include "sampler/stat_file.hpp"

#include <string_view>

namespace stand::sampler {
namespace {

namespace fs = std::filesystem;

// `value` of `file` in `dir` plus in every group below it; a group removed
// meanwhile counts 0.
template <typename Value>
std::optional<std::uint64_t> sum_over_tree(const fs::path& dir, const char* file, Value value) {
    StatFile own(dir / file, StatFile::Reopen::each_read);
    auto text = own.read();
    if (!text) return std::nullopt;
    std::uint64_t sum = value(*text).value_or(0);
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
        StatFile child(it->path() / file, StatFile::Reopen::each_read);
        if (auto t = child.read()) sum += value(*t).value_or(0);
    }
    return sum;
}

}  // namespace

std::optional<std::uint64_t> count_group_procs(const fs::path& dir) {
    return sum_over_tree(dir, "cgroup.procs",
                         [](std::string_view t) -> std::optional<std::uint64_t> { return box::count_lines(t); });
}

std::optional<std::uint64_t> sum_group_oom_kills(const fs::path& dir) {
    return sum_over_tree(dir, "memory.oom_control", [](std::string_view t) { return box::find_u64(t, "oom_kill"); });
}

}  // namespace stand::sampler
