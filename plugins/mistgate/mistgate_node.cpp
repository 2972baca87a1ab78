#include "mistgate_node.hpp"

#include <map>
#include <sstream>

namespace stand_mistgate {

using stand::cpp::Error;

InstallCommand parse_install_command(const std::string& text) {
    std::map<std::string, std::string> found;
    std::istringstream words(text);
    std::string word, previous;
    while (words >> word) {
        for (const char* name : {"panel", "sni", "ca-sha256", "token"})
            if (previous == std::string("--") + name && !found.count(name)) found[name] = word;
        previous = word;
    }
    std::string missing;
    for (const char* name : {"panel", "sni", "ca-sha256", "token"})
        if (!found.count(name)) missing += std::string(missing.empty() ? "" : ", ") + "--" + name;
    if (!missing.empty())
        throw Error(STAND_E_BAD_RESPONSE, "mistgate: NodeService/CreateEnrollment: the installCommand has no " +
                                              missing + " (expected `mistgate-node enroll --panel P --sni S "
                                              "--ca-sha256 H --token T`)");
    return {found["panel"], found["sni"], found["ca-sha256"], found["token"]};
}

NodeAgent::NodeAgent(const stand::cpp::Host& host, std::vector<std::string> command, std::string state_dir,
                     const stand_panel_kit::LaunchConfig& panel_launch)
    : command_(std::move(command)), state_dir_(std::move(state_dir)) {
    stand_panel_kit::LaunchConfig run;
    run.command = command_;
    if (!command_.empty()) {
        auto node = stand_panel_kit::service("node", command_);  // its own log, node.log: the panel's tail stays the panel's
        for (const char* a : {"run", "--state-dir"}) node.argv.emplace_back(a);
        node.argv.push_back(state_dir_);
        node.env = panel_launch.env;
        node.working_dir = panel_launch.working_dir;
        node.box = panel_launch.box;
        run.processes.push_back(std::move(node));
    }
    run.env = panel_launch.env;
    run.working_dir = panel_launch.working_dir;
    launcher_ = std::make_unique<stand_panel_kit::Launcher>(host, "mistgate node agent", run, state_dir_);
}

void NodeAgent::enroll(const InstallCommand& i) {
    auto argv = command_;
    for (const auto& a : {std::string("enroll"), std::string("--panel"), i.panel, std::string("--sni"), i.sni,
                          std::string("--ca-sha256"), i.ca_sha256, std::string("--token"), i.token,
                          std::string("--state-dir"), state_dir_})
        argv.push_back(a);
    launcher_->run_capture(argv, "enroll with the panel", 60000);
}

void NodeAgent::check_installed() const {
    launcher_->check_installed("config.node_command names Mistgate's node agent: install mistgate-node, or set "
                               "its argv ([] runs no agent, and bootstrap then needs a node that already serves)");
}

void NodeAgent::start() {
    if (!launcher_->running()) launcher_->start();
}

void NodeAgent::stop() { launcher_->stop(); }

std::vector<std::string> NodeAgent::expanded_command() const {
    std::vector<std::string> out;
    for (const auto& a : command_) out.push_back(launcher_->expand(a));
    return out;
}

}  // namespace stand_mistgate
