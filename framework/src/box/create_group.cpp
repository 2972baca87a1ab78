#include "box/create_group.hpp"

#include "box/cgroup_fs.hpp"
#include "box/group_name.hpp"

#include <algorithm>
#include <vector>

namespace stand::box {
namespace {

namespace fs = std::filesystem;

void inherit_cpuset(const fs::path& dir) {
    for (const char* file : {"cpuset.cpus", "cpuset.mems"}) {
        auto own = read_value(dir / file);
        if (own && !own->empty()) continue;
        auto parent = read_value(dir.parent_path() / file);
        if (!parent || parent->empty())
            throw BoxError("cannot initialise " + (dir / file).string() + ": the parent's " + file + " is empty");
        write_text(dir / file, *parent);
    }
}

void enable_v2_controllers(const fs::path& dir) {
    auto available = read_value(dir / "cgroup.controllers").value_or("");
    auto enabled = read_value(dir / "cgroup.subtree_control").value_or("");
    const auto has = [](const std::string& list, std::string_view c) {
        std::size_t at = 0;
        while ((at = list.find(c, at)) != std::string::npos) {
            bool start = at == 0 || list[at - 1] == ' ';
            bool end = at + c.size() == list.size() || list[at + c.size()] == ' ';
            if (start && end) return true;
            at += c.size();
        }
        return false;
    };
    for (auto c : kV2Controllers) {
        if (!has(available, c) || has(enabled, c)) continue;
        try {
            write_text(dir / "cgroup.subtree_control", "+" + std::string(c));
        } catch (const BoxError&) {
            if (c == "cpu" || c == "memory") throw;  // cpuset and pids are optional
        }
    }
}

}  // namespace

fs::path create_group(const fs::path& root, const std::string& run_group, const std::string& name,
                      CgroupVersion version, bool v1_cpuset) {
    const std::vector<fs::path> chain{root / kTopGroup, root / kTopGroup / run_group,
                                      root / kTopGroup / run_group / name};
    // A concurrent run may remove an empty top group between our mkdirs.
    for (int attempt = 0;; ++attempt) {
        std::vector<fs::path> created;
        try {
            for (std::size_t i = 0; i < chain.size(); ++i) {
                const bool leaf = i + 1 == chain.size();
                if (make_dir(chain[i]))
                    created.push_back(chain[i]);
                else if (leaf)
                    throw BoxError("cgroup " + chain[i].string() + " already exists (box '" + name +
                                   "' created twice in one run?)");
                if (version == CgroupVersion::v1 && v1_cpuset) inherit_cpuset(chain[i]);
                if (version == CgroupVersion::v2 && !leaf) enable_v2_controllers(chain[i]);
            }
            return chain.back();
        } catch (const BoxError&) {
            for (auto it = created.rbegin(); it != created.rend(); ++it) remove_dir(*it, std::chrono::milliseconds(500));
            // Also when this attempt made the top group and another run removed it, empty, before our next mkdir.
            bool raced = !fs::exists(chain[0]) || !fs::exists(chain[1]);
            if (attempt < 3 && raced) continue;
            throw;
        }
    }
}

bool remove_group(const fs::path& root, const fs::path& leaf, std::chrono::milliseconds patience) {
    // Groups a container engine made below the box (--cgroup-parent: podman's
    // conmon/ and libpod-<id>/ stay after the container is gone): deepest first.
    std::vector<fs::path> below;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(leaf, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec)) below.push_back(it->path());
    for (auto it = below.rbegin(); it != below.rend(); ++it) remove_dir(*it, std::chrono::milliseconds(500));
    if (!remove_dir(leaf, patience)) return false;
    // Best effort: busy (another box or run) is fine.
    for (fs::path p = leaf.parent_path(); p != root && p.string().size() > root.string().size(); p = p.parent_path())
        if (!remove_dir(p, std::chrono::milliseconds(0))) break;
    return true;
}

}  // namespace stand::box
