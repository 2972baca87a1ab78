// The target of the stand.panel/1 compat checks (`stand compat PLUGIN
// --target-config FILE`): a real panel or a test double the plugin starts.
//
//   {"config": {...},                  the plugin config for this target
//    "wrong_credentials": {"password": "nope"},   merged over "config" for
//                                       the wrong-credentials check
//    "users": 5,                        users created (2..1000)
//    "ready_timeout_s": 60,             start/restart until ready
//    "check_timeout_s": 180,            per check, child killed after it
//    "unserved_links": "why",           restart-keeps-users does not connect to
//                                       the link endpoints (e.g. "the core runs on
//                                       nodes, none here"); absent: it must
//    "unchecked_listeners": "why"}      listens-only-configured is skipped with
//                                       this reason when it cannot see the
//                                       sockets (no box, no process in it, only
//                                       containers' own network namespaces);
//                                       absent: it fails then
#pragma once

#include <boost/json.hpp>

#include <chrono>
#include <filesystem>
#include <string>

namespace stand::compat {

struct PanelTarget {
    std::string file;
    boost::json::object config;
    boost::json::object wrong_credentials;
    int users = 5;
    std::chrono::seconds ready_timeout{60};
    std::chrono::seconds check_timeout{180};
    std::string unserved_links;
    std::string unchecked_listeners;
};

// Throws std::runtime_error naming the file and the JSON path.
PanelTarget load_panel_target(const std::filesystem::path& file);

}  // namespace stand::compat
