// The keys of bootstrap, create_users and disk_usage (panel.cpp).
#pragma once

#include "scenario/scenario_model.hpp"

#include <cstdint>
#include <string>

namespace stand::scenario {

// stand.panel/1: the one-time setup (admin, inbound, group ...), timed.
struct BootstrapStep {};

// stand.panel/1: `count` users "<prefix>1".."<prefix>N", one call at a time;
// they become the repetition's users (the links of a subscriptions load).
struct CreateUsersStep {
    std::uint32_t count = 1;
    std::string prefix = "user";
};

// The on-disk size of the plugin's data dirs (lifecycle facts "data_dirs").
struct DiskUsageStep {};

}  // namespace stand::scenario
