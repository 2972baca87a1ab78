// A load step's control-plane churn (churn_per_s, seed onebox phase D):
// while the load runs, `per_s` times a second (drift-corrected) add user
// churn<i>, delete churn<i-1>, one admin call; each timed.
#pragma once

#include "scenario/steps/rep_context.hpp"

#include <boost/json/object.hpp>

#include <atomic>

namespace stand::scenario {

// Runs until `done`; puts <step>.admin_{add,del,call}_{p50,p95,max}_ms and
// .admin_errors, returns the counts and the first errors. Never throws
// (errors are counted: the load thread runs meanwhile and must be joined).
boost::json::object run_admin_churn(RepContext& ctx, const Step& s, double per_s, const std::atomic<bool>& done);

}  // namespace stand::scenario
