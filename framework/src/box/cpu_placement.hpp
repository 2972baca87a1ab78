// Where the proxy, the backend and the load generator run: disjoint CPU sets
// when the machine has the CPUs, so none of them measures another's work.
// Recorded in every repetition.
#pragma once

#include "box/cpu_list.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace stand::box {

struct CpuPlacement {
    CpuSet measured;   // the system under test's box
    CpuSet backend;    // the host-built backend's group
    CpuSet generator;  // the load generator's threads
    std::string note;  // how the split was made, and what is shared
    boost::json::object to_json() const;
};

// 3+ CPUs: measured gets the first, the backend the second, the generator
// the rest. 2 CPUs: measured gets one, backend and generator share the
// other. 1 CPU: everything shares it (the note says so).
// Throws std::invalid_argument for an empty set.
CpuPlacement place_on(const CpuSet& online);

}  // namespace stand::box
