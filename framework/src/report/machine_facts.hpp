// The machine facts of a run as one table for summary.md and report.html:
// run.json's host_facts (one "Value" column), or for a run on hosts a column
// per host with its address, stand, clock offset and how its run ended above
// its host_facts.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <utility>
#include <vector>

namespace stand::report {

struct MachineFacts {
    std::vector<std::string> columns;  // the value columns' headers
    std::vector<std::pair<std::string, std::vector<std::string>>> rows;  // fact, a value per column ("n/a" if none)
};

// No rows when run.json has neither host_facts nor fleet_hosts.
MachineFacts machine_facts(const boost::json::object& run);

}  // namespace stand::report
