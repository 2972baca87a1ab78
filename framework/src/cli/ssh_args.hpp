// The ssh options `stand fleet` and `stand run --host` share.
#pragma once

#include "cli/args.hpp"
#include "fleet/ssh_session.hpp"

#include <vector>

namespace stand::cli {

// --ssh-config FILE, --accept-new-host-key.
std::vector<OptionSpec> ssh_option_specs();

fleet::SshOptions ssh_options(const Args& args);

}  // namespace stand::cli
