#include "cli/ssh_args.hpp"

namespace stand::cli {

std::vector<OptionSpec> ssh_option_specs() { return {{"ssh-config", true}, {"accept-new-host-key"}}; }

fleet::SshOptions ssh_options(const Args& args) {
    fleet::SshOptions o;
    if (auto f = args.value("ssh-config")) o.config_file = args.check_input_file("ssh-config");
    o.accept_new_host_key = args.flag("accept-new-host-key");
    return o;
}

}  // namespace stand::cli
