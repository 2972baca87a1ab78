#include "box/group_paths.hpp"

#include <algorithm>

namespace stand::box {

std::vector<std::filesystem::path> GroupPaths::dirs() const {
    std::vector<std::filesystem::path> out;
    for (const auto& [name, e] : controllers)
        if (std::find(out.begin(), out.end(), e.dir) == out.end()) out.push_back(e.dir);
    return out;
}

const GroupPaths::Entry* GroupPaths::find(std::string_view controller) const {
    auto it = controllers.find(std::string(controller));
    return it == controllers.end() ? nullptr : &it->second;
}

}  // namespace stand::box
