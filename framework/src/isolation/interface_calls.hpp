// Calls one interface method of a plugin instance by name
// ("lifecycle.start", "panel.create_user", ...), translating JSON arguments
// into the C call and the sink output back. Used inside the plugin worker.
#pragma once

#include "loader/plugin_loader.hpp"

#include <stand/stand.h>

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::isolation {

struct CallOutcome {
    stand_result code = STAND_OK;
    std::string error;   // the plugin's message when code < 0
    std::string output;  // what the plugin wrote to the sink (JSON text), may be empty
};

// Throws std::invalid_argument for an unknown method or a missing argument;
// a plugin that does not implement the method's interface yields
// STAND_E_UNSUPPORTED with a message naming the interface.
CallOutcome call_interface(const loader::LoadedPlugin& plugin, stand_instance* instance, const std::string& method,
                           const boost::json::object& args);

// Every method name call_interface knows.
std::vector<std::string> known_methods();

}  // namespace stand::isolation
