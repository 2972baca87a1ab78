// The `stand` subcommands. Each takes the arguments after its name and
// returns an exit code (cli/exit_codes.hpp).
#pragma once

#include "cli/args.hpp"
#include "loader/plugin_search.hpp"

#include <string>
#include <vector>

namespace stand::cli {

int run_plugins(const std::vector<std::string>& argv);
int run_info(const std::vector<std::string>& argv);
int run_compat(const std::vector<std::string>& argv);
int run_run(const std::vector<std::string>& argv);
int run_probe(const std::vector<std::string>& argv);
int run_load(const std::vector<std::string>& argv);
int run_tunnel(const std::vector<std::string>& argv);
int run_report(const std::vector<std::string>& argv);
int run_compare(const std::vector<std::string>& argv);
int run_backend(const std::vector<std::string>& argv);
int run_new(const std::vector<std::string>& argv);
int run_fleet(const std::vector<std::string>& argv);

// Shared by the commands that look plugins up.
OptionSpec plugin_path_option();
loader::PluginSearch plugin_search(const Args& args);

}  // namespace stand::cli
