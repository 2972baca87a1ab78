#include "remnawave_config.hpp"

#include "remnawave_deployment.hpp"
#include "remnawave_node.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/hysteria2.hpp>
#include <stand/kits/panel/launcher.hpp>

namespace stand_remnawave {

const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::docker);
        s.key("command").describe("native, instead of source_dir: a command that starts a backend; ${data_dir} ${port} ${listen} expanded");
        s.key("env").describe("native env added to the declared processes' (or the command's: APP_PORT=${port}, SUB_PUBLIC_DOMAIN)");
        s.string("image", "docker; beside postgres:18.4 and valkey/valkey:9-alpine").by_default(kImage);
        s.string("host", "docker publishes the API on this address only").by_default("127.0.0.1");
        s.integer("port", "the backend's API port").range(1, 65535).by_default(3000);
        s.string("sub_public_domain", "SUB_PUBLIC_DOMAIN (no scheme); default host:port/api/sub, the backend itself");
        s.string("source_dir", "native: the backend's checkout, built (dist/, prisma/, node_modules/)");
        s.string("node", "native: Node.js (the backend's engines: >= 24.18), for the node too").by_default("node");
        s.string("postgres_bin", "native: the folder of initdb, postgres, pg_isready, psql").by_default("/usr/lib/postgresql/15/bin");
        s.string("postgres_user", "native: the user PostgreSQL runs as (it refuses root)").by_default("postgres");
        s.integer("database_port", "native: PostgreSQL's port on 127.0.0.1").range(1, 65535).by_default(6767);
        s.string("redis_server", "native: Redis (or Valkey) server").by_default("redis-server");
        s.integer("redis_port", "native: Redis's port on 127.0.0.1 (compose's Valkey has a socket only)").range(1, 65535).by_default(6380);
        s.integer("metrics_port", "native: METRICS_PORT, the scheduler's /health and /metrics").range(1, 65535).by_default(3001);
        s.choice("migrations", {"prisma", "psql"}, "native: `prisma migrate deploy` at every start, as the image does; psql: "
                                                    "prisma/migrations/*/migration.sql once per data dir (no Prisma schema engine here)")
            .by_default("prisma");
        s.boolean("run_node", "run a Remnawave node on this machine and register it, so that Xray serves the links: docker: "
                              "node_image as a compose service (network host, NET_ADMIN, as the node's compose file), "
                              "started once the backend issued its SECRET_KEY; native: node_source_dir's build, Xray "
                              "under s6-supervise").by_default(false);
        s.string("node_image", "docker, with run_node: the node's image").by_default(kNodeImage);
        s.string("node_source_dir", "native, with run_node: the node's checkout, built (dist/main.js, node_modules/; "
                                    "tests/real-panels/prepare_remnawave_node.sh)");
        s.string("node_root", "native, with run_node: RW_ROOT, the image's paths the build names (command/s6-svc, "
                              "usr/local/bin/rw-core, usr/local/share/xray); default <node_source_dir>/../root");
        s.string("s6_supervise", "native, with run_node: s6's supervisor, which runs Xray for the node").by_default("s6-supervise");
        s.integer("node_port", "NODE_PORT: the node's API (mTLS), which the backend calls; the node binds every interface")
            .range(1, 65535).by_default(2222);
        s.string("node_address", "where the backend reaches the node and what the hosts name; default config.host with "
                                 "run_node; given without run_node, a node running there is registered (bootstrap "
                                 "writes the SECRET_KEY it needs into <data dir>/node.env)");
        s.integer("node_ready_timeout_s", "bootstrap: how long to wait for the backend to report the node connected")
            .range(1, 3600).by_default(60);
        stand_panel_kit::declare_hysteria2_keys(
            s, "default-squad",
            "default-squad: users join the default squad, links on its first inbound (Shadowsocks on a fresh panel); "
            "hysteria2: a config profile with Xray's hysteria inbound (TLS with a self-signed certificate made in "
            "<data dir>/tls), its own squad, a host pinning the certificate; tunnel_auth is the user's vlessUuid");
        stand_panel_kit::declare_credential_keys(s, "benchadmin", "the admin login", "the admin password (24+ characters when generated)");
        return s;
    }();
    return spec;
}

}  // namespace stand_remnawave
