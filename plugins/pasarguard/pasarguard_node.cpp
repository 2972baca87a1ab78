#include "pasarguard_node.hpp"

#include "tls/test_certificates.hpp"

#include <stand/cpp/executable.hpp>
#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/file_text.hpp>

#include <regex>

namespace stand_pasarguard {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

namespace {

constexpr const char* kNodeDir = "node";  // under the data dir: certs/, generated/, node.env

fs::path node_dir(const fs::path& data_dir) { return data_dir / kNodeDir; }
fs::path env_file(const fs::path& data_dir) { return node_dir(data_dir) / "node.env"; }

}  // namespace

void declare_node_keys(stand::cpp::ConfigSpec& s) {
    s.string("node",
             "PasarGuard's node binary (PasarGuard/node: `CGO_ENABLED=0 go build ./cmd/node`); given, the adapter runs it "
             "in the box beside the panel with a certificate and API key it makes in <data dir>/node (SSL_CERT_FILE, "
             "SSL_KEY_FILE, API_KEY in the node's own environment), registers it through the panel's API (gRPC, the "
             "certificate as server_ca), waits until the panel reports it connected, and the hosts name its endpoint "
             "(config.host:inbound_port); absent, no node runs and the links name " +
                 std::string("node1.bench.test"));
    s.string("node_xray", "the Xray binary the node runs (XRAY_EXECUTABLE_PATH); default: the node's, /usr/local/bin/xray");
    s.string("node_xray_assets", "the folder of Xray's geo files (XRAY_ASSETS_PATH); default: the node's, /usr/local/share/xray");
    s.integer("node_port", "the node's gRPC port (SERVICE_PORT), bound on config.host").range(1, 65535).by_default(62050);
}

NodeSettings read_node_settings(stand::cpp::ConfigValues& cfg, const std::string& listen) {
    NodeSettings n{cfg.string("node"), cfg.string("node_xray"), cfg.string("node_xray_assets"),
                   static_cast<int>(cfg.integer("node_port"))};
    if (!n.enabled()) {
        for (const char* k : {"node_xray", "node_xray_assets"})
            if (cfg.given(k)) throw ConfigError(std::string("config.") + k + ": only with config.node (the node's binary)");
        return n;
    }
    // config/config.go: NODE_HOST must match an IPv4 address, else the node binds 127.0.0.1.
    if (!std::regex_match(listen, std::regex(R"((\d{1,3}\.){3}\d{1,3})")))
        throw ConfigError("config.host: '" + listen + "' is not an IPv4 address, which the node's NODE_HOST needs "
                          "(config.node is given)");
    return n;
}

void add_node_process(stand_panel_kit::LaunchConfig& lc, const NodeSettings& node) {
    if (!node.enabled()) return;
    if (lc.mode == stand_panel_kit::RunMode::native && lc.processes.empty() && !lc.command.empty())
        lc.processes.push_back(stand_panel_kit::command_process(lc));
    auto p = stand_panel_kit::service("node", {node.binary});
    const std::string dir = std::string("${data_dir}/") + kNodeDir;
    p.env = {{"SERVICE_PORT", "${node_port}"},
             {"NODE_HOST", "${listen}"},
             {"SERVICE_PROTOCOL", "grpc"},
             {"SSL_CERT_FILE", dir + "/certs/p256.crt"},
             {"SSL_KEY_FILE", dir + "/certs/p256.key"},
             {"GENERATED_CONFIG_PATH", dir + "/generated/"}};
    if (!node.xray.empty()) p.env["XRAY_EXECUTABLE_PATH"] = node.xray;
    if (!node.xray_assets.empty()) p.env["XRAY_ASSETS_PATH"] = node.xray_assets;
    p.env_file = dir + "/node.env";  // API_KEY: kept out of the process's declared (and reported) environment
    p.working_dir = dir;             // godotenv reads ./.env: none there
    p.data = {kNodeDir};
    p.ready.tcp = "${listen}:${node_port}";
    p.on_restart = stand_panel_kit::OnRestart::persists;  // a service of its own, not the panel's
    p.box = lc.box;
    p.install_hint = "config.node names PasarGuard's node binary (plugins/pasarguard/README.md: building it)";
    lc.processes.push_back(std::move(p));
}

void check_node_install(const NodeSettings& node) {
    if (!node.enabled()) return;  // its own binary: the kit checks every declared process's
    try {
        stand::cpp::require_executable(node.xray.empty() ? "/usr/local/bin/xray" : node.xray,
                                       "config.node_xray names the Xray binary the node runs");
    } catch (const Error& e) {
        throw Error(STAND_E_NOT_FOUND, std::string("pasarguard: install: the node's Xray: ") + e.what());
    }
}

NodeFiles ensure_node_files(const stand::cpp::Host& host, const fs::path& data_dir) {
    NodeFiles f;
    try {
        const auto cert = stand::tls::ensure_test_certificate(node_dir(data_dir) / "certs", "p256");
        f.certificate_pem = stand_panel_kit::read_text(cert.cert_file);
    } catch (const std::exception& e) {
        throw Error(STAND_E_IO, std::string("pasarguard: start: the node's certificate in ") +
                                    (node_dir(data_dir) / "certs").string() + ": " + e.what());
    }
    std::error_code ec;
    if (!fs::exists(env_file(data_dir), ec))
        stand_panel_kit::write_private_file(env_file(data_dir), "API_KEY=" + stand_panel_kit::random_uuid() + "\n");
    const auto env = stand_panel_kit::read_env_file(env_file(data_dir), "pasarguard: the node's env file");
    const auto* key = env.if_contains("API_KEY");
    if (!key || !key->is_string() || key->as_string().empty())
        throw Error(STAND_E_INVALID_ARGUMENT, "pasarguard: " + env_file(data_dir).string() +
                                                  ": no API_KEY line (wipe the data dir to make a new one)");
    f.api_key = std::string(key->as_string());
    host.mark_secret(f.api_key);
    return f;
}

NodeState register_node(const stand::cpp::Host& host, Api& api, const NodeRegistration& n, int timeout_ms) {
    const json::object body{{"name", kNodeName},
                            {"address", n.address},
                            {"port", n.port},
                            {"connection_type", "grpc"},
                            {"server_ca", n.files.certificate_pem},
                            {"api_key", n.files.api_key},
                            {"keep_alive", 60},
                            {"core_config_id", n.core_id}};
    const auto id = api.find_node(kNodeName);
    const long long node_id = id ? *id : api.create_node(body);
    if (id) api.modify_node(*id, body);  // a rerun on the same data dir: the registration follows the config
    const auto deadline = host.monotonic_ns() + static_cast<std::uint64_t>(timeout_ms) * 1000000ULL;
    for (;;) {
        auto state = api.node_state(node_id);
        if (state.status == "connected") return state;
        if (host.monotonic_ns() >= deadline)
            throw Error(STAND_E_TIMEOUT, "pasarguard: bootstrap: the panel reports node '" + std::string(kNodeName) + "' " +
                                             state.status + (state.message.empty() ? "" : " (" + state.message + ")") +
                                             " after " + std::to_string(timeout_ms / 1000) +
                                             " s, not connected; see the node's log node.log in the plugin's data dir");
        host.sleep_ms(500);
    }
}

void add_node_facts(json::object& facts, const NodeSettings& node, const std::optional<NodeState>& state) {
    if (!node.enabled()) return;
    json::object n{{"binary", node.binary}, {"xray", node.xray.empty() ? "/usr/local/bin/xray" : node.xray}, {"port", node.port}};
    if (state) {
        n["status_at_bootstrap"] = state->status;
        if (!facts["versions"].is_object()) facts["versions"] = json::object{};
        auto& versions = facts["versions"].as_object();
        if (!state->node_version.empty()) versions["pasarguard-node"] = state->node_version;
        if (!state->xray_version.empty()) versions["xray"] = state->xray_version;
    }
    facts["node"] = std::move(n);
}

}  // namespace stand_pasarguard
