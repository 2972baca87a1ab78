// Detectors that look at one load result.
#pragma once

#include "detect/finding.hpp"
#include "load/load_result.hpp"

#include <vector>

namespace stand::detect {

// generator-saturated: the generator's threads ran, or were runnable and
//   waited for a CPU, more than 90 % of the time.
// mostly-429 / mostly-non-2xx: over half the answers were 429 (a rate limit
//   was measured, not the service) or not 2xx.
// open-model-behind: in the open model more than 1 % of requests were sent
//   late, or some were never sent: the offered rate was not achieved.
std::vector<Finding> check_load(const load::LoadResult& result, const std::string& scope);

}  // namespace stand::detect
