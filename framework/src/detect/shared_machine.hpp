// A run on hosts whose hosts are one machine: hosts with the same kernel
// boot id ran their parts at the same time on one kernel (network
// namespaces, containers, or one server named twice), so each one's numbers
// include the others' load and the columns do not compare machines.
#pragma once

#include "detect/finding.hpp"

#include <boost/json/array.hpp>

#include <vector>

namespace stand::detect {

// `fleet_hosts`: run.json's entries ({"name", "boot_id", ...}); a host
// without a boot id is never counted as shared. One finding per machine
// that more than one host ran on.
std::vector<Finding> check_shared_machine(const boost::json::array& fleet_hosts);

}  // namespace stand::detect
