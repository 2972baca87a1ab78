// Remnawave's node on this machine, as data (node 3.3.2: its image, its
// docker-compose-prod.yml and docker/rootfs, read at the tag). The node is a
// NestJS app that the backend drives over mTLS on NODE_PORT; Xray runs
// beside it under s6 (the image's s6-overlay), reading its config from the
// node's abstract socket, and the node stops and starts it with s6-svc.
// Docker: the official image as a compose service, network host, NET_ADMIN,
// as the node's compose file runs it, started once the backend has issued
// its SECRET_KEY (compose profile "node"). Native: a node built from source
// (tests/real-panels/prepare_remnawave_node.sh) and s6-supervise from
// Debian, two declared processes the adapter starts once the key is written.
#pragma once

#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/panel_process.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand_remnawave {

inline constexpr const char* kNodeImage = "remnawave/node:3.3.2";
inline constexpr const char* kNodeService = "remnawave-node";
inline constexpr const char* kNodeProfile = "node";  // the compose profile `up -d` leaves out
// The names of the native processes (their logs: <name>.log).
inline constexpr const char* kXrayProcess = "xray-supervise";
inline constexpr const char* kNodeProcess = "node";

struct NodeSettings {
    std::string source_dir;    // native: the node's checkout, built (dist/main.js, node_modules/)
    std::string root;          // native: RW_ROOT, the image's paths (command/s6-svc, usr/local/bin/rw-core, ...)
    std::string s6_supervise;  // native: Debian's s6-supervise
    std::string node;          // native: Node.js 24
    int port = 2222;           // NODE_PORT
};

// The compose service (docker mode): env_file <data dir>/node.env.
stand_panel_kit::ComposeService node_compose_service(const std::string& image, int port);

// Xray under s6-supervise (<data dir>/node/xray, its `run` and `down` files
// written by write_xray_service()), then the node: both autostart false,
// persisting a restart of the backend, env_file <data dir>/node.env.
std::vector<stand_panel_kit::PanelProcess> node_processes(const NodeSettings& s);

// The s6 service folder: `run` execs Xray as the image's does, `down` keeps
// it stopped until the node says `s6-svc -u`. Idempotent.
void write_xray_service(const std::filesystem::path& service_dir);

// <data dir>/node.env (0600): SECRET_KEY and, native, what the image's
// init-env.sh generates at each container start (INTERNAL_REST_TOKEN, the
// names of the two abstract sockets).
void write_node_env(const std::filesystem::path& file, const std::string& secret_key, bool native);
// The SECRET_KEY a node.env holds ("" when there is none).
std::string node_env_secret_key(const std::filesystem::path& file);

// What install() checks of a native node: dist/main.js and RW_ROOT's Xray;
// Error(STAND_E_NOT_FOUND) names the first file missing.
void check_node_build(const NodeSettings& s);

}  // namespace stand_remnawave
