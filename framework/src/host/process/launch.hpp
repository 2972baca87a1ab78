// fork+execve of a SpawnPlan. The child joins its cgroups, redirects stdio
// and changes directory before execve, using only async-signal-safe calls
// (the host is multi-threaded); failures come back through a CLOEXEC pipe.
#pragma once

#include "host/process/spawn_spec.hpp"

#include <filesystem>
#include <sys/types.h>

namespace stand::host {

// Returns the pid once execve has succeeded. stdin is /dev/null, stdout and
// stderr are appended to `output`. Throws stand::cpp::Error(STAND_E_IO) when
// the output cannot be opened, or the child could not join a cgroup, enter
// its cwd or exec (the child is reaped then).
pid_t launch_child(const SpawnPlan& plan, const std::filesystem::path& output);

}  // namespace stand::host
