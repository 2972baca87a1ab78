#include "target/backend_process.hpp"

#include "backend/host_port.hpp"
#include "host/process/process_manager.hpp"

#include <boost/json.hpp>

#include <csignal>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace stand::target {
namespace {

namespace json = boost::json;

// The file from byte `offset` on: what this backend wrote to a log that may
// hold an earlier one's (a resumed run appends to the same file).
std::string read_from(const std::filesystem::path& p, std::uintmax_t offset) {
    std::ifstream in(p);
    in.seekg(static_cast<std::streamoff>(offset));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::uintmax_t size_or_zero(const std::filesystem::path& p) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(p, ec);
    return ec ? 0 : size;
}

// The first line of the output that parses as a JSON object with "listen".
std::optional<json::object> ready_line(const std::string& output) {
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line))
        if (auto ready = backend_ready_line(line)) return ready;
    return std::nullopt;
}

}  // namespace

std::pair<std::string, std::uint16_t> split_host_port(const std::string& text, const std::string& what) {
    try {
        const auto endpoint = backend::parse_host_port(text);
        return {endpoint.address().to_string(), endpoint.port()};
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(what + ": " + e.what());
    }
}

BackendProcess::BackendProcess(const BackendOptions& options, std::chrono::milliseconds ready_within)
    : options_(options) {
    const auto box = options.box;
    processes_ = std::make_unique<host::ProcessManager>(options.log_file.parent_path(),
                                                        [box](const std::string&) { return box; });
    json::object spec{{"argv", json::array{options.stand_binary.string(), "backend", "--listen", "127.0.0.1:0",
                                           "--control", "127.0.0.1:0", "--body-bytes",
                                           std::to_string(options.body_bytes), "--threads",
                                           std::to_string(options.threads), "--ws-path", options.ws_path}},
                      {"output", options.log_file.string()}};
    if (!box.empty()) spec["box"] = "backend";
    const auto earlier = size_or_zero(options.log_file);
    handle_ = processes_->spawn(spec);
    const auto deadline = std::chrono::steady_clock::now() + ready_within;
    while (true) {
        if (auto line = ready_line(read_from(options.log_file, earlier))) {
            info_ = *line;
            break;
        }
        stand_process_status status{};
        if (processes_->wait(handle_, 0, status))
            throw std::runtime_error("the backend (`stand backend`) exited before it was ready: " +
                                     read_from(options.log_file, earlier).substr(0, 600));
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("the backend (`stand backend`) printed no ready line in " +
                                     std::to_string(ready_within.count()) + " ms; its output: " +
                                     read_from(options.log_file, earlier).substr(0, 600));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::tie(host_, port_) = split_host_port(std::string(info_.at("listen").as_string()), "backend listen");
    std::tie(control_host_, control_port_) =
        split_host_port(std::string(info_.at("control").as_string()), "backend control");
}

BackendProcess::~BackendProcess() {
    try {
        processes_->signal(handle_, SIGTERM);
        stand_process_status status{};
        if (!processes_->wait(handle_, 5000, status)) processes_->kill_all();
    } catch (...) {
        processes_->kill_all();
    }
}

int BackendProcess::pid() const {
    const auto* p = info_.if_contains("pid");
    return p != nullptr && p->is_number() ? p->to_number<int>() : -1;
}

std::optional<double> BackendProcess::cpu_seconds() const {
    const int p = pid();
    if (p <= 0) return std::nullopt;
    std::ifstream in("/proc/" + std::to_string(p) + "/stat");
    return cpu_seconds_of_stat(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()),
                               ::sysconf(_SC_CLK_TCK));
}

BackendStats BackendProcess::stats() const { return backend_stats_at(control_host_, control_port_); }

}  // namespace stand::target
