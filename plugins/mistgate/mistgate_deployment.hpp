// How Mistgate runs, as data: its server (config.command natively, or docker
// compose with host networking, so the panel sees loopback peers as it does
// natively: --trusted-proxy 127.0.0.1), its one-time `mistgate setup`, and
// its node agent beside it: `<node_command> run --state-dir <data dir>/node`
// in the box, started by bootstrap once the agent is enrolled, kept running
// across a panel restart (the seed's harness restarted the panel only).
#pragma once

#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/launcher.hpp>

#include <string>
#include <vector>

namespace stand_mistgate {

inline constexpr const char* kContainerDataDir = "/var/lib/mistgate";

stand_panel_kit::ComposeFile compose_file(const std::string& image, const std::string& host, int port, int agent_port);

// `mistgate setup` (docker: in a one-off container of the image).
std::vector<std::string> default_setup_command(const stand_panel_kit::LaunchConfig& lc, const std::string& image);

// The node agent as a declared process ("node"); `node_command` must not be empty.
stand_panel_kit::PanelProcess node_process(const std::vector<std::string>& node_command,
                                           const stand_panel_kit::LaunchConfig& panel);
// Its --state-dir.
inline constexpr const char* kNodeStateDir = "${data_dir}/node";

}  // namespace stand_mistgate
