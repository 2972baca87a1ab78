// `stand load ... --generator NAME=ssh://... [--generator ...]`: the load
// from the generators, not from here (fleetrun/generator_load.hpp), their
// results merged (fleetrun/merged_load.hpp) and printed as one.
#pragma once

#include "cli/args.hpp"
#include "load/load_spec.hpp"

#include <vector>

namespace stand::cli {

// --generator, --host and the ssh options `stand load` takes.
std::vector<OptionSpec> generator_options();

// The addresses of --host and --generator declarations (the load-target
// rule allows them); UsageError for a malformed one.
std::vector<std::string> declared_host_addresses(const Args& args);

// `spec` is what the arguments say (checked already). Returns the exit code.
int load_on_generators(const Args& args, const load::LoadSpec& spec);

}  // namespace stand::cli
