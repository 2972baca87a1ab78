#include "fleetrun/controller_load.hpp"

#include "fleet/wall_clock.hpp"
#include "host/http/target_resolver.hpp"
#include "host/http/url.hpp"
#include "load/histogram_file.hpp"
#include "posix/write_all.hpp"
#include "text/temp_dir.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>
#include <boost/process.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;
namespace bp = boost::process;
namespace net = boost::asio::ip;

// ---- the host side ----

std::string request_line(const ControllerLoadRequest& r) {
    json::array options(r.options.begin(), r.options.end()), urls(r.urls.begin(), r.urls.end());
    return std::string(kControllerLoadRequest) +
           json::serialize(json::object{
               {"options", std::move(options)}, {"urls", std::move(urls)}, {"rate", r.rate}, {"allow_remote", r.allow_remote}}) +
           "\n";
}

// Fills `g` from the answer; whether it says the controller was interrupted.
bool take_answer(const std::string& line, GeneratorOutcome& g) {
    boost::system::error_code ec;
    const json::value v = json::parse(line, ec);
    if (ec || !v.is_object()) {
        g.problem = "the controller's answer is not JSON";
        return false;
    }
    const json::object& a = v.as_object();
    const auto* interrupted = a.if_contains("interrupted");
    const bool was_interrupted = interrupted != nullptr && interrupted->is_bool() && interrupted->as_bool();
    if (const auto* code = a.if_contains("exit_code"); code && code->is_int64()) g.exit_code = static_cast<int>(code->as_int64());
    if (const auto* p = a.if_contains("problem"); p && p->is_string() && !p->as_string().empty()) {
        g.problem = std::string(p->as_string());
        return was_interrupted;
    }
    try {
        g.result = a.at("result").as_object();
        g.histograms = load::histogram_set_from_json(a.at("histograms"));
    } catch (const std::exception& e) {
        g.problem = std::string("the controller's answer has no usable result: ") + e.what();
    }
    return was_interrupted;
}

// ---- the controller side ----

std::vector<net::address> addresses_of(const std::string& name) {
    boost::system::error_code ec;
    if (const auto literal = net::make_address(name, ec); !ec) return {literal};
    boost::asio::io_context io;
    net::tcp::resolver resolver(io);
    std::vector<net::address> out;
    for (const auto& entry : resolver.resolve(name, "", ec)) out.push_back(entry.endpoint().address());
    return out;
}

// "" when the controller may load `url` for `host`; else why not.
std::string target_refusal(const std::string& text, const fleet::SshTarget& host, bool allow_remote) {
    host::http::Url url;
    try {
        url = host::http::parse_url(text, "URL");
    } catch (const std::exception& e) {
        return e.what();
    }
    boost::system::error_code ec;
    const auto address = url.host_is_ip ? net::make_address(url.host, ec) : net::address();
    const bool loopback = url.host_is_ip ? host::http::is_loopback(address)
                                         : url.host == "localhost" || url.host.ends_with(".localhost");
    if (loopback)
        return "the load target " + text + " is host " + host.name +
               "'s own loopback, which the controller cannot reach: have the system under test listen on the "
               "host's address (" + host.address + "; for the proxies the knob listen.host)";
    if (url.host_is_ip)
        for (const auto& own : addresses_of(host.address))
            if (own == address) return "";
    if (allow_remote) return "";
    return "the load target " + text + " is not host " + host.name + "'s address (" + host.address +
           ") and the scenario's allow_remote is not set";
}

struct LocalLoad {
    int exit_code = -1;
    std::string result_line;
    std::string last_lines;
};

// `stand load` here; SIGINT reaches it once `interrupted` is set.
LocalLoad run_local_load(const std::filesystem::path& stand_binary, const std::vector<std::string>& argv,
                         const std::filesystem::path& err_file, const std::atomic<bool>& interrupted) {
    LocalLoad out;
    bp::ipstream from;
    bp::child c(stand_binary.string(), argv, bp::std_out > from, bp::std_err > err_file.string(), bp::std_in < bp::null);
    std::atomic<bool> ended{false};
    std::thread watcher([&] {
        while (!ended.load()) {
            if (interrupted.load()) {
                ::kill(c.id(), SIGINT);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    for (std::string line; std::getline(from, line);)
        if (line.starts_with("{\"schema\":\"stand.load/1\"")) out.result_line = line;
    c.wait();
    ended = true;
    watcher.join();
    out.exit_code = c.exit_code();
    std::ifstream err_in(err_file);
    std::deque<std::string> last;
    for (std::string line; std::getline(err_in, line);) {
        last.push_back(line);
        if (last.size() > 3) last.pop_front();
    }
    for (const auto& line : last) out.last_lines += (out.last_lines.empty() ? "" : "; ") + line;
    return out;
}

json::object answer(const json::object& request, const fleet::SshTarget& host, const std::atomic<bool>& interrupted,
                    const std::filesystem::path& stand_binary) {
    const bool allow_remote = request.at("allow_remote").as_bool();
    std::vector<std::string> args;
    for (const auto& u : request.at("urls").as_array()) {
        const std::string url(u.as_string());
        if (auto why = target_refusal(url, host, allow_remote); !why.empty()) return {{"problem", why}};
        args.push_back(url);
    }
    if (args.empty()) return {{"problem", "the request names no URL"}};
    const text::TempDir dir("stand-controller-load");  // mode 0700: a header may hold a token
    {
        std::ofstream file(dir.path() / "args");
        for (const auto& o : request.at("options").as_array()) file << std::string(o.as_string()) << "\n";
        file << "--allow-remote\n";  // the target was checked above: the host's address or allowed
        for (const auto& a : args) file << a << "\n";
    }
    std::vector<std::string> argv{"load", "--json", "--histogram-out", (dir.path() / "histograms.json").string()};
    if (const double rate = request.at("rate").to_number<double>(); rate > 0) {
        char text[40];
        std::snprintf(text, sizeof text, "%.6f", rate);
        argv.insert(argv.end(), {"--rate", text});
    }
    argv.insert(argv.end(), {"--args-file", (dir.path() / "args").string()});
    const LocalLoad run = run_local_load(stand_binary, argv, dir.path() / "err", interrupted);
    json::object out{{"exit_code", run.exit_code}, {"interrupted", interrupted.load()}};
    if (run.result_line.empty()) {
        out["problem"] = "the controller's stand load printed no result (exit " + std::to_string(run.exit_code) + ")" +
                         (run.last_lines.empty() ? "" : ": " + run.last_lines);
        return out;
    }
    out["result"] = json::parse(run.result_line);
    out["histograms"] = load::histogram_set_to_json(load::read_histogram_file(dir.path() / "histograms.json"));
    return out;
}

}  // namespace

ControllerChannel::ControllerChannel() : in_(::fcntl(0, F_DUPFD_CLOEXEC, 3)) {
    const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd >= 0) {
        ::dup2(null_fd, 0);
        ::close(null_fd);
    }
}

std::optional<std::string> ControllerChannel::read_line(std::chrono::seconds within) {
    std::string line;
    if (in_.get() < 0 || reader_.read_line(line, within) != posix::LineReader::Got::line) return std::nullopt;
    return line;
}

GeneratorOutcome ControllerChannel::load(const ControllerLoadRequest& request, std::chrono::seconds answer_within) {
    GeneratorOutcome g;
    g.name = "controller";
    g.url = "the machine stand run was started on";
    g.rate = request.rate;
    g.start_at_host_ns = fleet::wall_ns();
    std::fflush(stdout);
    if (!posix::write_all(1, request_line(request))) {
        g.problem = std::string("could not ask the controller (its connection is gone: ") + std::strerror(errno) + ")";
        return g;
    }
    const auto line = read_line(answer_within);
    if (!line) {
        g.problem = "the controller did not answer within " + std::to_string(answer_within.count()) +
                    " s (or its connection is gone)";
        return g;
    }
    const bool controller_interrupted = take_answer(*line, g);
    // The controller's Ctrl-C reaches this process as SIGINT too, but
    // through another ssh channel, maybe after this step has moved on: the
    // answer makes it happen here and now, as it does there.
    if (controller_interrupted) ::raise(SIGINT);
    return g;
}

std::optional<std::string> answer_controller_load(const std::string& line, const fleet::SshTarget& host,
                                                  const std::atomic<bool>& interrupted,
                                                  const std::filesystem::path& stand_binary) {
    if (!line.starts_with(kControllerLoadRequest)) return std::nullopt;
    json::object reply;
    try {
        const json::value request = json::parse(line.substr(kControllerLoadRequest.size()));
        reply = answer(request.as_object(), host, interrupted, stand_binary);
    } catch (const std::exception& e) {
        reply = {{"problem", std::string("the controller could not run the load: ") + e.what()}};
    }
    return json::serialize(reply);
}

}  // namespace stand::fleetrun
