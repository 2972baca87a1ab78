// Mistgate's node agent as the adapter enrolls it: the install command that
// NodeService/CreateEnrollment returns names the panel address, the secret
// agent SNI, the panel CA's fingerprint and a one-time token; the adapter runs
// `<node_command> enroll --panel P --sni S --ca-sha256 H --token T --state-dir D`
// to its end (then `<node_command> run --state-dir D`, a declared process:
// mistgate_deployment.hpp). Mistgate serves a subscription without server
// lines until the agent has connected and reported its certificate pin.
#pragma once

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

// `node_command` + enroll with the install command's values and `state_dir`.
std::vector<std::string> enroll_argv(const std::vector<std::string>& node_command, const InstallCommand& install,
                                     const std::string& state_dir);

}  // namespace stand_mistgate
