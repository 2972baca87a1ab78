// PSI files (/proc/pressure/*, <cgroup>/*.pressure):
//   some avg10=0.12 avg60=0.05 avg300=0.01 total=123456
//   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
#pragma once

#include "sampler/sample.hpp"

#include <string_view>

namespace stand::sampler {

// The "some" line; fields it lacks stay absent.
Pressure parse_pressure_some(std::string_view text);

}  // namespace stand::sampler
