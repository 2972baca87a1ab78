// `stand compat --help`: the options, then every key of the --target-config
// file with its type, default and meaning (from compat::panel_target_keys()).
#pragma once

#include <string>

namespace stand::cli {

std::string compat_help();

}  // namespace stand::cli
