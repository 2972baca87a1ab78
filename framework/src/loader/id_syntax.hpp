// Syntax rules for plugin ids and interface ids (see sdk plugin.h).
#pragma once

#include <string_view>

namespace stand::loader {

bool is_valid_plugin_id(std::string_view id);
bool is_valid_interface_id(std::string_view id);

}  // namespace stand::loader
