#include "mistgate_node.hpp"

#include <stand/cpp/error.hpp>

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

std::vector<std::string> enroll_argv(const std::vector<std::string>& node_command, const InstallCommand& i,
                                     const std::string& state_dir) {
    auto argv = node_command;
    argv.insert(argv.end(), {"enroll", "--panel", i.panel, "--sni", i.sni, "--ca-sha256", i.ca_sha256, "--token", i.token,
                             "--state-dir", state_dir});
    return argv;
}

}  // namespace stand_mistgate
