// Making and removing one box directory in one hierarchy:
// <root>/stand/<run group>/<name>. The top and run groups are shared by the
// boxes of a run (and by runs), the leaf is always new.
#pragma once

#include "box/cgroup_layout.hpp"

#include <chrono>
#include <filesystem>
#include <string>

namespace stand::box {

// v1 cpuset groups get cpuset.cpus/mems from their parent at every level
// (a new v1 cpuset is empty and no task can join it until both are set);
// v2 intermediate groups enable the controllers their parent offers.
// Throws BoxError (the leaf exists already, mkdir or setup failed) after
// removing what it created.
std::filesystem::path create_group(const std::filesystem::path& root, const std::string& run_group,
                                   const std::string& name, CgroupVersion version, bool v1_cpuset);

// Removes the groups below the leaf (a container engine's, made with the box
// as cgroup parent), the leaf, retrying while busy for up to `patience`, then
// its run and top groups when nobody else uses them. False when the leaf stayed.
bool remove_group(const std::filesystem::path& root, const std::filesystem::path& leaf,
                  std::chrono::milliseconds patience);

}  // namespace stand::box
