// A run's unique name: "YYYYMMDD-HHMMSS-" and 16 random hex digits. Fleet
// hosts keep a run's remote directory under it, so two runs never share one
// whatever their local directories are called.
#pragma once

#include <string>

namespace stand::rundir {

std::string new_run_id();

}  // namespace stand::rundir
