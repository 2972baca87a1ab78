// Disk throttling of a box: cgroup v1 blkio.throttle.{read,write}_{iops,bps}_device,
// v2 io.max ("254:0 rbps=max wbps=max riops=1000 wiops=max").
#pragma once

#include "box/box_plan.hpp"
#include "box/group_paths.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace stand::box {

// Writes the limit. Throws BoxError naming the file (no blkio/io controller,
// a device the kernel refuses).
void apply_io_limit(const GroupPaths& paths, const BoxPlan& plan);

// The limits in force for `device` in the box; nullopt without the controller.
std::optional<IoLimit> read_io_limit(const GroupPaths& paths, const std::string& device);

// Parsers of the kernel's texts (tests): v1 "254:0 1000\n" lines, v2 io.max.
std::optional<std::uint64_t> v1_throttle_value(std::string_view text, std::string_view device);
IoLimit v2_io_max(std::string_view text, std::string_view device);

// "" when `effective` has what `plan` asked for, else one drift line.
std::string io_drift(const IoLimit& plan, const std::optional<IoLimit>& effective);

}  // namespace stand::box
