// What a system under test keeps in its data dirs, for the disk_usage step.
#pragma once

#include <filesystem>
#include <vector>

namespace stand::scenario {

// Bytes of the regular files below `dirs` (missing ones count 0). A symbolic
// link is not data: 3x-ui's bin/ links to the installed Xray, and following
// it would count the installation as data.
double data_bytes(const std::vector<std::filesystem::path>& dirs);

}  // namespace stand::scenario
