// The keys of run_probe (probe.cpp).
#pragma once

#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <string>

namespace stand::scenario {

struct ProbeStep {
    std::string job;
    boost::json::object params;
};

}  // namespace stand::scenario
