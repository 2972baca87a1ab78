// Mistgate's config, declared once (the constructor reads it and the
// plugin's JSON Schema is written from it): the panel kit's launch keys and
// the panel's own, and the options the adapter reads from it.
#pragma once

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/launcher.hpp>
#include <stand/stand.hpp>

#include <string>
#include <vector>

namespace stand_mistgate {

const stand::cpp::ConfigSpec& config_spec();

struct Options {
    stand_panel_kit::LaunchConfig launch;
    std::string host, image;
    int port = 18080, agent_port = 18081, node_ready_s = 120;
    unsigned totp_step = 30;
    std::vector<std::string> node_command;   // [] = no agent
    std::vector<std::string> setup_command;  // [] = the server prints the setup lines itself
    stand_panel_kit::Credentials given;
};
// Throws ConfigError naming the field.
Options read_options(const boost::json::object& config);

}  // namespace stand_mistgate
