#include "box/stale_cleanup.hpp"

#include "box/cgroup_fs.hpp"
#include "box/group_name.hpp"
#include "box/kill_group.hpp"

#include <algorithm>
#include <cerrno>
#include <set>

namespace stand::box {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> subdirs(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_directory(ec) && !e.is_symlink(ec)) out.push_back(e.path());
    return out;
}

// Depth-first: children before their parent.
void collect_leaf_first(const fs::path& dir, std::vector<fs::path>& out) {
    for (const auto& sub : subdirs(dir)) collect_leaf_first(sub, out);
    out.push_back(dir);
}

void remove_run_group(const fs::path& run_dir, StaleCleanup& report) {
    std::vector<fs::path> dirs;
    collect_leaf_first(run_dir, dirs);
    report.killed += group_pids(dirs).size();
    if (!kill_group(dirs, std::chrono::seconds(5))) {
        report.failed.push_back(run_dir.string() + ": processes survived SIGKILL");
        return;
    }
    for (const auto& d : dirs) {
        if (remove_dir(d, std::chrono::seconds(1)))
            report.removed.push_back(d.string());
        else
            report.failed.push_back(d.string() + ": " + errno_text(errno));
    }
}

}  // namespace

StaleCleanup cleanup_stale_boxes(const CgroupLayout& layout) {
    std::set<fs::path> roots;
    if (layout.v2_root) roots.insert(*layout.v2_root);
    for (const auto& [c, root] : layout.v1) roots.insert(root);
    roots.insert(layout.v1_foreign.begin(), layout.v1_foreign.end());

    StaleCleanup report;
    for (const auto& root : roots) {
        const fs::path top = root / kTopGroup;
        for (const auto& run_dir : subdirs(top)) {
            auto owner = parse_run_group_name(run_dir.filename().string());
            if (!owner || owner_alive(*owner)) continue;
            remove_run_group(run_dir, report);
        }
        remove_dir(top, std::chrono::milliseconds(0));  // only when empty
    }
    return report;
}

}  // namespace stand::box
