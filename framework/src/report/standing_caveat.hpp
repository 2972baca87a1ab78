// The caveat every report ends its findings with: what is true of every
// number of the run, whatever the detectors saw (the run's run.json says
// whether it ran on this machine or on hosts).
#pragma once

#include <boost/json/object.hpp>

#include <string>

namespace stand::report {

// One sentence, plain text (escape it for the output format).
std::string standing_caveat(const boost::json::object& run);

}  // namespace stand::report
