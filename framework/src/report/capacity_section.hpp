// The capacity searches of report.html: per capacity step, each finished
// repetition's curve (p95 latency over the offered rate, the levels that met
// the objective filled) and what each search found.
#pragma once

#include "report/html_charts.hpp"

#include <string>
#include <vector>

namespace stand::report {

// "" when no repetition ran a capacity step.
std::string capacity_section(const std::vector<RepView>& reps);

}  // namespace stand::report
