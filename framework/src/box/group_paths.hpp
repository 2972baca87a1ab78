// Where one box lives: per controller, the hierarchy root and the box's
// directory under it (v1: one directory per hierarchy; v2: the same
// directory for every controller).
#pragma once

#include "box/cgroup_layout.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stand::box {

struct GroupPaths {
    struct Entry {
        std::filesystem::path root;
        std::filesystem::path dir;
    };
    CgroupVersion version = CgroupVersion::v1;
    std::map<std::string, Entry> controllers;  // keys from kV1Controllers

    // Distinct directories, the ones a process joins.
    std::vector<std::filesystem::path> dirs() const;
    const Entry* find(std::string_view controller) const;
};

}  // namespace stand::box
