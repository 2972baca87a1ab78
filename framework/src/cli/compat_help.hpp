// `stand compat --help`: the options, then every key of the --target-config
// file with its type, default and meaning (from compat::panel_target_keys()),
// then every check id with its description (from compat::suite_checks(), so
// the list is the suite's own: the SDK installs no list of them).
#pragma once

#include <string>

namespace stand::cli {

std::string compat_help();

}  // namespace stand::cli
