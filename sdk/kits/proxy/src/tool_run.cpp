#include <stand/kits/proxy/tool_run.hpp>

#include <csignal>
#include <fstream>
#include <sstream>

namespace stand_proxy_kit {

namespace fs = std::filesystem;

ToolRun run_tool(const stand::cpp::Host& host, const std::vector<std::string>& argv, const fs::path& scratch_dir,
                 const std::string& what, const std::string& label, const boost::json::object& env,
                 std::int64_t timeout_ms) {
    fs::create_directories(scratch_dir);
    const fs::path out = scratch_dir / (what + ".txt");
    std::error_code ec;
    fs::remove(out, ec);
    boost::json::array args;
    std::string command;
    for (const auto& a : argv) {
        args.emplace_back(a);
        command += (command.empty() ? "" : " ") + a;
    }
    boost::json::object spec{{"argv", std::move(args)}, {"output", out.string()}};
    if (!env.empty()) spec["env"] = env;
    stand::cpp::Process p(host, spec);
    stand_process_status status{};
    if (!p.wait(timeout_ms, status)) {
        p.signal(SIGKILL);
        p.wait(-1, status);
        throw stand::cpp::Error(STAND_E_TIMEOUT, label + ": `" + command + "` did not finish in " +
                                                     std::to_string(timeout_ms / 1000) + " s");
    }
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    fs::remove(out, ec);
    return {status.state == STAND_PROCESS_EXITED ? status.exit_code : -1, text.str()};
}

std::string output_tail(const std::string& text, std::size_t max_chars) {
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
    return t.size() > max_chars ? "..." + t.substr(t.size() - max_chars) : t;
}

}  // namespace stand_proxy_kit
