// cpu-governor and cpu-boost: the two host settings google/benchmark and
// LLVM's Benchmarking tips name as noise for any timed measurement, found in
// a host's facts (detect/host_tuning.hpp). A governor other than
// `performance` lets the clock follow the load; boost lets it rise above base
// while power and thermal headroom last, even under `performance`. SMT, ASLR
// and transparent huge pages stay facts (scenarios/README.md says why), and a
// setting that is not visible (a VM's guest) fires nothing.
#pragma once

#include "detect/finding.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace stand::detect {

// `facts`: run.json's host_facts (or a fleet host's); `scope` names the
// machine in the finding ("this machine", "host edge1").
std::vector<Finding> check_host_tuning(const boost::json::object& facts, const std::string& scope);

// Over a run.json: its host_facts ("this machine"), or each of its
// fleet_hosts' ("host NAME").
std::vector<Finding> check_run_host_tuning(const boost::json::object& run);

}  // namespace stand::detect
