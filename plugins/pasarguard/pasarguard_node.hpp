// PasarGuard's node (PasarGuard/node, checked on the real v0.5.2) in the
// measured box beside the panel, as the panel's own docs run one: the node's
// binary with its environment (.env.example's keys), its TLS certificate and
// API key made in <data dir>/node, a declared process that persists across a
// panel restart (a separate service), the Xray it runs its child. The panel
// learns it through its own API (POST /api/node, gRPC, the certificate as
// server_ca) and pushes the core config and the users to it.
#pragma once

#include "pasarguard_api.hpp"

#include <stand/kits/panel/launcher.hpp>
#include <stand/kits/panel/panel_process.hpp>
#include <stand/stand.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace stand_pasarguard {

// The name the adapter registers its node under.
inline constexpr const char* kNodeName = "stand-node";

struct NodeSettings {
    std::string binary;       // "": no node runs (the hosts name kNodeAddress)
    std::string xray;         // XRAY_EXECUTABLE_PATH; "": the node's default
    std::string xray_assets;  // XRAY_ASSETS_PATH; "": the node's default
    int port = 62050;         // SERVICE_PORT
    bool enabled() const { return !binary.empty(); }
};

void declare_node_keys(stand::cpp::ConfigSpec& spec);
// `listen` is config.host: the node binds it (NODE_HOST takes an IPv4
// address only); ConfigError names the field otherwise.
NodeSettings read_node_settings(stand::cpp::ConfigValues& cfg, const std::string& listen);

// Declares the node as a process after the panel's, in the panel's box
// (native mode with config.command: that command becomes the process
// "panel" first). ${listen} and ${node_port} are the adapter's variables.
// SSL_CERT_FILE is set in its own environment: a machine-wide one (a CA
// bundle) would otherwise be read as its certificate.
void add_node_process(stand_panel_kit::LaunchConfig& lc, const NodeSettings& node);

// install(): the Xray the node runs exists (the kit checks the node's own program).
void check_node_install(const NodeSettings& node);

// start(): the node's certificate (self-signed, for 127.0.0.1 and localhost)
// and API key (a UUID, in the env file its process reads, mode 0600) in
// <data dir>/node, made once per data dir. The key is marked a secret.
struct NodeFiles {
    std::string certificate_pem;  // what the panel gets as server_ca
    std::string api_key;
};
NodeFiles ensure_node_files(const stand::cpp::Host& host, const std::filesystem::path& data_dir);

// bootstrap: the node registered under kNodeName on `core_id` (created, or
// its registration updated to these settings), then polled until the panel
// reports it connected. Error(STAND_E_TIMEOUT) with the panel's status and
// message when it is not within `timeout_ms`.
struct NodeRegistration {
    std::string address;
    int port = 0;
    NodeFiles files;
    long long core_id = 0;
};
NodeState register_node(const stand::cpp::Host& host, Api& api, const NodeRegistration& node, int timeout_ms);

// facts(): {"node": {binary, xray, port, status_at_bootstrap}} and the
// versions the node reported to the panel at the last bootstrap ({"pasarguard-node": ..., "xray": ...} into `versions`).
void add_node_facts(boost::json::object& facts, const NodeSettings& node, const std::optional<NodeState>& state);

}  // namespace stand_pasarguard
