#include <stand/kits/proxy/proxy_plugin.hpp>

#include <stand/cpp/executable.hpp>

#include <stand/kits/proxy/cert_key_type.hpp>
#include <stand/kits/proxy/config_files.hpp>

namespace stand_proxy_kit {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;

namespace {

std::string command_line(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}

// "nginx.conf" → "nginx.next.conf": the candidate the proxy's check reads;
// after a rejection it stays for inspection.
std::string candidate_name(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name + ".next" : name.substr(0, dot) + ".next" + name.substr(dot);
}

}  // namespace

ProxyPlugin::ProxyPlugin(const stand::cpp::Host& host, const json::object& config, ProxyTraits traits)
    : host_(host), traits_(std::move(traits)), server_(traits_.id, traits_.graceful_signal, traits_.grace_ms) {
    const stand::cpp::ConfigSpec spec = config_spec(traits_);
    auto cfg = spec.read(config);
    // Absolute from here on: facts, artifacts and "not found" name the file
    // that was looked at, whatever directory a run's files are read from.
    binary_ = stand::cpp::resolve_executable(cfg.string("binary")).string();
    box_ = cfg.string("box");
    settings_.knobs.listen_port = static_cast<std::uint16_t>(cfg.integer("port"));
    settings_.knobs.workers = cfg.integer("workers");
    if (traits_.origin_mode) settings_.body = cfg.string("body");
    cfg.finish();
}

ProxyPlugin::~ProxyPlugin() {
    if (server_.running()) server_.stop();
}

fs::path ProxyPlugin::data_dir() const { return fs::path(host_.data_dir()) / traits_.id; }

stand_result ProxyPlugin::install() {
    check_binary();
    version();
    write_checked_config(settings_);
    return STAND_OK;
}

stand_result ProxyPlugin::start() {
    server_.expect_not_running();
    check_binary();
    check_knobs(settings_.knobs);
    write_checked_config(settings_);
    json::array argv;
    for (const auto& a : start_argv(settings_)) argv.emplace_back(a);
    json::object spec{{"argv", std::move(argv)}, {"output", (data_dir() / "stdout.log").string()}};
    if (auto env = environment(settings_); !env.empty()) spec["env"] = std::move(env);
    server_.start(host_, std::move(spec), box_);
    return STAND_OK;
}

stand_result ProxyPlugin::stop() { return server_.stop(); }

stand_result ProxyPlugin::restart() {
    server_.expect_running();
    server_.stop();
    return start();
}

stand_result ProxyPlugin::wipe() {
    server_.expect_stopped("wipe");
    remove_data_dir(data_dir(), traits_.id);
    checked_.clear();
    return STAND_OK;
}

json::object ProxyPlugin::readiness() { return proxy_readiness(settings_.knobs); }

json::object ProxyPlugin::facts() {
    json::object facts{{"binary", binary_},
                       {"config", (data_dir() / traits_.main_config).string()},
                       {"data_dirs", json::array{data_dir().string()}},
                       {"defaults", effective_defaults()}};
    if (auto env = environment(settings_); !env.empty()) facts["environment"] = std::move(env);
    if (!version_.empty()) facts["versions"] = json::object{{traits_.id, version_}};
    std::error_code ec;
    auto bytes = fs::file_size(binary_, ec);
    if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
    add_facts(facts);
    return facts;
}

void ProxyPlugin::configure(const json::object& knobs) {
    ProxySettings next = settings_;
    next.knobs = apply_proxy_knobs(knobs, settings_.knobs);
    check_knobs(next.knobs);
    if (next.knobs.tls) key_type(next.knobs);  // a readable certificate, or an error naming it
    if (fs::exists(binary_)) write_checked_config(next);
    settings_ = std::move(next);
}

json::object ProxyPlugin::endpoint() { return proxy_endpoint(settings_.knobs, {"h2", "http/1.1"}); }

json::object ProxyPlugin::effective_defaults() {
    const auto& k = settings_.knobs;
    json::object d{{"version", version()},
                   {"workers", k.workers},
                   {"workers_means", traits_.workers_means},
                   {"access_log", "off"}};
    add_defaults(d, settings_);
    if (!k.upstreams.empty()) {
        const bool pool = upstream_pool_on(settings_);
        d["upstream_keepalive"] = pool;
        d["upstream_keepalive_source"] = k.upstream_keepalive ? "knob" : traits_.id + " default";
        d["upstream_pool"] = upstream_pool(settings_, pool);
    }
    if (k.tls) d["tls_key_type"] = key_type(k);
    return d;
}

std::string ProxyPlugin::key_type(const ProxyKnobs& k) const {
    try {
        return cert_key_type(k.cert_file);
    } catch (const std::exception& e) {
        throw Error(STAND_E_INVALID_ARGUMENT, traits_.id + ": knobs.tls_key.cert_file: " + e.what());
    }
}

json::object ProxyPlugin::environment(const ProxySettings& s) const {
    json::object env = extra_environment();
    // Go sizes its scheduler from GOMAXPROCS: the worker-count knob.
    if (traits_.go_runtime) env["GOMAXPROCS"] = std::to_string(s.knobs.workers);
    return env;
}

ToolRun ProxyPlugin::run(const std::vector<std::string>& argv, const std::string& what,
                         const ProxySettings& s) const {
    return run_tool(host_, argv, data_dir(), what, traits_.id, environment(s));
}

void ProxyPlugin::check_binary() const {
    try {
        stand::cpp::require_executable(binary_, traits_.missing_binary);
    } catch (const Error& e) {
        throw Error(STAND_E_NOT_FOUND, traits_.id + ": " + e.what());
    }
}

const std::string& ProxyPlugin::version() {
    if (!version_.empty() || !fs::exists(binary_)) return version_;
    const auto argv = version_argv();
    auto r = run(argv, "version", settings_);
    std::string v = r.exit_code == 0 ? version_from(r.output) : std::string();
    if (v.empty())
        throw Error(STAND_E_BAD_RESPONSE, traits_.id + ": cannot read the version from `" + command_line(argv) +
                                              "`: " + output_tail(r.output, 200));
    version_ = std::move(v);
    return version_;
}

// Writes the config files for `s`; the main one takes the place of the
// previous only once the proxy's own check accepted it. Skipped when the
// files are the ones the proxy last accepted.
void ProxyPlugin::write_checked_config(const ProxySettings& s) {
    const auto files = render_config(s);
    std::string all;
    for (const auto& f : files) all += f.name + '\0' + f.text + '\0';
    const fs::path main = data_dir() / traits_.main_config;
    if (all == checked_ && fs::exists(main)) return;
    checked_.clear();
    fs::create_directories(data_dir());
    const fs::path candidate = data_dir() / candidate_name(traits_.main_config);
    const auto check = config_check(candidate);
    bool has_main = false;
    for (const auto& f : files) {
        const bool is_main = f.name == traits_.main_config;
        has_main = has_main || is_main;
        write_file(is_main && check ? candidate : data_dir() / f.name, f.text, f.private_file, traits_.id);
    }
    if (!has_main) throw Error(STAND_E_INTERNAL, traits_.id + ": rendered no " + traits_.main_config);
    if (check) {
        auto r = run(check->argv, "check", s);
        if (r.exit_code != 0)
            throw Error(STAND_E_INVALID_ARGUMENT, traits_.id + ": `" + check->name + "` rejected " +
                                                      candidate.string() + ": " + check_failure(r.output));
        std::error_code ec;
        fs::rename(candidate, main, ec);
        if (ec) throw Error(STAND_E_IO, traits_.id + ": cannot write " + main.string() + ": " + ec.message());
    }
    checked_ = std::move(all);
}

stand::cpp::ConfigSpec config_spec(const ProxyTraits& t) {
    stand::cpp::ConfigSpec s;
    s.string("binary", "the " + t.id + " executable: a path (a relative one from stand's working directory) or a name on PATH")
        .by_default(t.default_binary);
    s.string("box", "box to run in; empty: none").by_default("measured");
    s.integer("port", "the listen port until knobs.listen.port moves it").range(1, 65535).by_default(t.default_port);
    s.integer("workers", t.workers_means + " (knobs.workers overrides it)").range(1, 64).by_default(1);
    if (t.origin_mode)
        s.string("body", "origin mode (no upstreams): the 200 answer's body, written into the config files as it is")
            .pattern("^[A-Za-z0-9 _.-]{0,256}$", "only letters, digits, space, '_', '.', '-' (at most 256)")
            .by_default("ok");
    return s;
}

}  // namespace stand_proxy_kit
