// What the probe records about the machine, and finding a tool on PATH.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand_sysprobe {

// "model name" of the first CPU in /proc/cpuinfo (x86), else "Model" or
// "Hardware" (ARM); "unknown" when none is there.
std::string cpu_model(const std::string& cpuinfo_path = "/proc/cpuinfo");

// sysconf(_SC_NPROCESSORS_ONLN), at least 1.
unsigned online_cpus();

// The first of `names` that is an executable file in a directory of
// `search_path` (colon-separated, as $PATH), as a full path.
std::optional<std::string> find_executable(const std::vector<std::string>& names, std::string_view search_path);

}  // namespace stand_sysprobe
