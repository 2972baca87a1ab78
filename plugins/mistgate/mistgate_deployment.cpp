#include "mistgate_deployment.hpp"

namespace stand_mistgate {

stand_panel_kit::ComposeFile compose_file(const std::string& image, const std::string& host, int port, int agent_port) {
    const std::string agent = host + ":" + std::to_string(agent_port);
    auto panel = stand_panel_kit::compose_service("mistgate", image, "stand_mistgate");
    panel.network_mode = "host";
    panel.command = {"serve", "--data-dir", kContainerDataDir, "--listen", host + ":" + std::to_string(port),
                     "--trusted-proxy", "127.0.0.1", "--agent-listen", agent, "--agent-addr", agent};
    panel.volumes = {std::string("${data_dir}:") + kContainerDataDir};
    return {{panel}, {}};
}

std::vector<std::string> default_setup_command(const stand_panel_kit::LaunchConfig& lc, const std::string& image) {
    if (lc.mode == stand_panel_kit::RunMode::docker)
        return {lc.docker, "run", "--rm", "-v", std::string("${data_dir}:") + kContainerDataDir, image, "setup",
                "--data-dir", kContainerDataDir, "--public-url", "http://localhost:${port}"};
    return {"mistgate", "setup", "--data-dir", "${data_dir}", "--public-url", "http://localhost:${port}"};
}

stand_panel_kit::PanelProcess node_process(const std::vector<std::string>& node_command,
                                           const stand_panel_kit::LaunchConfig& panel) {
    auto argv = node_command;
    argv.insert(argv.end(), {"run", "--state-dir", kNodeStateDir});
    auto node = stand_panel_kit::service("node", argv);  // its own log, node.log: the panel's tail stays the panel's
    node.env = panel.env;
    node.working_dir = panel.working_dir;
    node.box = panel.box;
    node.on_restart = stand_panel_kit::OnRestart::persists;
    node.autostart = false;
    node.data = {"node"};
    return node;
}

}  // namespace stand_mistgate
