// Short runs of a proxy's own binary (`nginx -t`, `haproxy -c`, `caddy
// validate`, `-v`) through the host's process service, output captured.
#pragma once

#include <stand/cpp/host.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand_proxy_kit {

struct ToolRun {
    int exit_code = -1;   // -1: ended by a signal
    std::string output;   // stdout and stderr together
};

// Runs argv (not in a box: a tool run is not measured) with `env` added to
// the environment and waits up to `timeout_ms`. The output goes through
// `scratch_dir`/<what>.txt, removed afterwards. Throws stand::cpp::Error
// (STAND_E_TIMEOUT) naming `label` and the command when it does not finish;
// the process is killed then.
ToolRun run_tool(const stand::cpp::Host& host, const std::vector<std::string>& argv,
                 const std::filesystem::path& scratch_dir, const std::string& what, const std::string& label,
                 const boost::json::object& env = {}, std::int64_t timeout_ms = 30000);

// The last `max_chars` of `text` without trailing newlines, for error messages.
std::string output_tail(const std::string& text, std::size_t max_chars = 400);

}  // namespace stand_proxy_kit
