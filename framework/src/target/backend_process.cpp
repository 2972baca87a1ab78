#include "target/backend_process.hpp"

#include "backend/host_port.hpp"
#include "host/process/process_manager.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
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
namespace asio = boost::asio;
namespace http = boost::beast::http;

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
    while (std::getline(lines, line)) {
        if (line.empty() || line.front() != '{') continue;
        boost::system::error_code ec;
        auto v = json::parse(line, ec);
        if (!ec && v.is_object() && v.as_object().contains("listen")) return v.as_object();
    }
    return std::nullopt;
}

std::uint64_t counter(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_number()) throw std::runtime_error(std::string("backend stats without \"") + key + "\"");
    return v->to_number<std::uint64_t>();
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
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');  // the command name may hold spaces
    if (paren == std::string::npos) return std::nullopt;
    std::istringstream fields(text.substr(paren + 2));
    std::string skip;
    for (int i = 3; i < 14; ++i) fields >> skip;  // fields 3..13: state .. cmajflt
    unsigned long long utime = 0, stime = 0;
    if (!(fields >> utime >> stime)) return std::nullopt;
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

BackendStats BackendProcess::stats() const {
    const std::string where = control_host_ + ":" + std::to_string(control_port_);
    try {
        asio::io_context io;
        asio::ip::tcp::socket socket(io);
        socket.connect({asio::ip::make_address(control_host_), control_port_});
        http::request<http::empty_body> req{http::verb::get, "/stats", 11};
        req.set(http::field::host, where);
        req.set(http::field::connection, "close");
        http::write(socket, req);
        boost::beast::flat_buffer buffer;
        http::response<http::string_body> res;
        http::read(socket, buffer, res);
        if (res.result_int() != 200) throw std::runtime_error("HTTP " + std::to_string(res.result_int()));
        auto o = json::parse(res.body()).as_object();
        return {counter(o, "accepted"), counter(o, "open"), counter(o, "requests"), counter(o, "ws_sessions"),
                counter(o, "ws_messages")};
    } catch (const std::exception& e) {
        throw std::runtime_error("the backend's stats at " + where + " did not answer: " + e.what());
    }
}

}  // namespace stand::target
