// Mistgate's node agent as the adapter runs it (as Mistgate's own benchmark,
// tools/bench/ in github.com/Mistgate/mistgate, runs it): the install command that
// NodeService/CreateEnrollment returns names the panel address, the secret
// agent SNI, the panel CA's fingerprint and a one-time token; the adapter runs
// `<node_command> enroll --panel P --sni S --ca-sha256 H --token T --state-dir D`
// to its end, then `<node_command> run --state-dir D` as a long-running process
// in the measured box. Mistgate serves a subscription without server lines
// until the agent has connected and reported its certificate pin.
#pragma once

#include "launcher.hpp"

#include <memory>
#include <string>
#include <vector>

namespace stand_mistgate {

// The four values of an installCommand. The token is a secret: never logged.
struct InstallCommand {
    std::string panel, sni, ca_sha256, token;
};

// Parses `--panel X --sni X --ca-sha256 X --token X` out of the one-line
// install command; throws STAND_E_BAD_RESPONSE naming the missing options.
InstallCommand parse_install_command(const std::string& text);

class NodeAgent {
public:
    // `command`: argv of the agent binary (empty = no agent); `state_dir`: its --state-dir.
    NodeAgent(const stand::cpp::Host& host, std::vector<std::string> command, std::string state_dir,
              const stand_panel_kit::LaunchConfig& panel_launch);

    bool configured() const noexcept { return !command_.empty(); }
    const std::vector<std::string>& command() const noexcept { return command_; }
    const std::string& state_dir() const noexcept { return state_dir_; }
    void set_variable(const std::string& name, const std::string& value) { launcher_->set_variable(name, value); }

    // install(): the agent's executable exists (Error STAND_E_NOT_FOUND naming it otherwise).
    void check_installed() const;
    // `enroll` to its end (60 s at most); an error names its exit and output.
    void enroll(const InstallCommand& install);
    void start();  // `run`, in the panel's box
    void stop();
    bool running() const noexcept { return launcher_->running(); }
    // The agent's argv with ${...} expanded, for facts().
    std::vector<std::string> expanded_command() const;

private:
    std::vector<std::string> command_;
    std::string state_dir_;
    std::unique_ptr<stand_panel_kit::Launcher> launcher_;
};

}  // namespace stand_mistgate
