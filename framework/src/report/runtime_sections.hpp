// "## Go runtimes in the box": every Go program the repetitions saw in the
// measured box (rep "go_runtimes", detect/go_runtime.hpp) with what sizes
// its scheduler, and the caveats where Go's own rounding put it above the
// box (rep "go_runtime_notes"). Empty without any.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::report {

std::string go_runtimes_markdown(const std::vector<boost::json::object>& reps);

}  // namespace stand::report
