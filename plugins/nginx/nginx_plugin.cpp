// nginx: runs the installed nginx in the measured box, as an origin that
// answers `200 ok` or as a reverse proxy in front of upstreams
// (stand.lifecycle/1 + stand.proxy/1).
#include "nginx_config.hpp"

#include <stand/stand.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class Nginx : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    Nginx(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        binary_ = cfg.string("binary", "/usr/sbin/nginx");
        box_ = cfg.string("box", "measured");
        settings_.listen_port = static_cast<std::uint16_t>(cfg.integer("port", 18080, 1, 65535));
        settings_.workers = cfg.integer("workers", 1, 1, 64);
        settings_.body = cfg.string("body", "ok");
        if (!std::regex_match(settings_.body, std::regex("[A-Za-z0-9 _.-]{0,256}")))
            throw ConfigError("config.body: only letters, digits, space, '_', '.', '-' (at most 256)");
        cfg.finish();
    }

    ~Nginx() override {
        if (process_) stop();
    }

    stand_result install() override {
        if (!fs::exists(binary_))
            throw Error(STAND_E_NOT_FOUND, "nginx: " + binary_ + " not found (Debian: apt-get install nginx-light)");
        version_ = run_and_capture({binary_, "-v"});
        return STAND_OK;
    }

    stand_result start() override {
        if (process_) throw Error(STAND_E_BAD_STATE, "nginx: already running");
        fs::path prefix = prefix_dir();
        fs::create_directories(prefix / "tmp");
        std::ofstream(prefix / "nginx.conf") << stand_nginx::render_nginx_conf(settings_, prefix.string());
        json::object spec{{"argv", json::array{binary_, "-c", (prefix / "nginx.conf").string(), "-p", prefix.string(),
                                               "-g", "daemon off;"}},
                          {"output", (prefix / "stdout.log").string()}};
        if (!box_.empty()) spec["box"] = box_;
        process_ = std::make_unique<stand::cpp::Process>(host_, spec);
        return STAND_OK;
    }

    stand_result stop() override {
        if (!process_) return STAND_OK_NOTHING_TO_DO;
        stand_process_status status{};
        process_->signal(SIGQUIT);  // graceful: finish requests in flight
        if (!process_->wait(10000, status)) {
            process_->signal(SIGKILL);
            process_->wait(-1, status);
        }
        process_.reset();
        return STAND_OK;
    }

    stand_result restart() override {
        if (!process_) throw Error(STAND_E_BAD_STATE, "nginx: not running");
        stop();
        return start();
    }

    stand_result wipe() override {
        if (process_) throw Error(STAND_E_BAD_STATE, "nginx: stop before wipe");
        std::error_code ec;
        fs::remove_all(prefix_dir(), ec);
        if (ec) throw Error(STAND_E_IO, "nginx: cannot remove " + prefix_dir().string() + ": " + ec.message());
        return STAND_OK;
    }

    json::object readiness() override {
        return {{"method", "GET"}, {"url", base_url() + "/"}, {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000}};
    }

    json::object facts() override {
        json::object facts{{"data_dirs", json::array{prefix_dir().string()}},
                           {"defaults", effective_defaults()}};
        if (!version_.empty()) facts["versions"] = json::object{{"nginx", version_}};
        std::error_code ec;
        auto bytes = fs::file_size(binary_, ec);
        if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
        return facts;
    }

    void configure(const json::object& knobs) override {
        stand::cpp::ConfigReader k(knobs, "knobs");
        if (const auto* listen = k.object("listen")) {
            stand::cpp::ConfigReader l(*listen, "knobs.listen");
            settings_.listen_host = l.string("host", settings_.listen_host);
            settings_.listen_port = static_cast<std::uint16_t>(l.integer("port", settings_.listen_port, 1, 65535));
            if (l.boolean("tls", false)) throw Error(STAND_E_UNSUPPORTED, "nginx: knobs.listen.tls is not supported yet");
            l.finish();
        }
        settings_.upstream_keepalive = k.boolean("upstream_keepalive", settings_.upstream_keepalive);
        settings_.workers = k.integer("workers", settings_.workers, 1, 64);
        if (const auto* ups = k.array("upstreams")) {
            settings_.upstreams.clear();
            for (const auto& u : *ups) {
                if (!u.is_object()) throw ConfigError("knobs.upstreams[]: expected objects {host, port}");
                stand::cpp::ConfigReader r(u.as_object(), "knobs.upstreams[]");
                settings_.upstreams.push_back(
                    {r.string("host", "127.0.0.1"), static_cast<std::uint16_t>(r.integer("port", 0, 1, 65535))});
                r.finish();
            }
        }
        k.finish();
    }

    json::object endpoint() override {
        return {{"scheme", "http"}, {"host", settings_.listen_host}, {"port", settings_.listen_port}};
    }

    json::object effective_defaults() override {
        return {{"workers", settings_.workers},
                {"upstream_keepalive", settings_.upstreams.empty() ? json::value(nullptr)
                                                                   : json::value(settings_.upstream_keepalive)},
                {"access_log", "off"},
                {"keepalive_requests", 1000000}};
    }

private:
    fs::path prefix_dir() const { return fs::path(host_.data_dir()) / "nginx"; }
    std::string base_url() const {
        return "http://" + settings_.listen_host + ":" + std::to_string(settings_.listen_port);
    }

    // Runs a short command through the host and returns its first output line.
    std::string run_and_capture(const std::vector<std::string>& argv) {
        fs::path out = fs::path(host_.data_dir()) / "version.txt";
        json::array args;
        for (const auto& a : argv) args.emplace_back(a);
        stand::cpp::Process p(host_, {{"argv", args}, {"output", out.string()}});
        stand_process_status status{};
        if (!p.wait(10000, status)) throw Error(STAND_E_TIMEOUT, "nginx: `" + argv[0] + " -v` did not finish in 10 s");
        std::string text = read_file(out);
        fs::remove(out);
        std::smatch m;
        if (std::regex_search(text, m, std::regex("nginx/([0-9.]+)"))) return m[1];
        throw Error(STAND_E_BAD_RESPONSE, "nginx: cannot read the version from: " + text.substr(0, 200));
    }

    stand::cpp::Host host_;
    std::string binary_;
    std::string box_;
    std::string version_;
    stand_nginx::NginxSettings settings_;
    std::unique_ptr<stand::cpp::Process> process_;
};

}  // namespace

STAND_CPP_PLUGIN(Nginx, "nginx", "nginx", "0.1.0",
                 "Runs the installed nginx in the measured box: an origin answering 200, or a reverse proxy.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "binary":{"type":"string","default":"/usr/sbin/nginx"},
                     "box":{"type":"string","default":"measured","description":"box to run in; empty: none"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":18080},
                     "workers":{"type":"integer","minimum":1,"maximum":64,"default":1},
                     "body":{"type":"string","pattern":"^[A-Za-z0-9 _.-]{0,256}$","default":"ok"}}})")
