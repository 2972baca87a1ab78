#include "mistgate_config.hpp"

#include "mistgate_deployment.hpp"

namespace stand_mistgate {

namespace json = boost::json;

const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(
            s, stand_panel_kit::RunMode::native,
            {"mistgate", "serve", "--data-dir", "${data_dir}", "--listen", "${listen}:${port}", "--trusted-proxy",
             "127.0.0.1", "--agent-listen", "${listen}:${agent_port}", "--agent-addr", "${listen}:${agent_port}"});
        s.key("command").describe("native argv of the server; ${data_dir} ${port} ${listen} ${agent_port} are expanded");
        s.string("host", "the address the panel and its agent listener bind (${listen})").by_default("127.0.0.1");
        s.integer("port", "the panel's HTTP port").range(1, 65535).by_default(18080);
        s.integer("agent_port", "the panel's listener for node agents (--agent-listen / --agent-addr)")
            .range(1, 65535)
            .by_default(18081);
        s.strings("node_command",
                  "argv of the node agent; bootstrap runs `<node_command> enroll --panel --sni --ca-sha256 --token "
                  "--state-dir <data dir>/node` with the install command the panel returns, then "
                  "`<node_command> run --state-dir ...` in the box (kept running across a panel restart). [] = no "
                  "agent: bootstrap fails unless a node already serves. ${data_dir} ${port} ${listen} ${agent_port} "
                  "are expanded")
            .by_default(std::vector<std::string>{"mistgate-node"});
        s.integer("node_ready_timeout_s",
                  "how long bootstrap waits for the node agent to make the probe subscription non-empty")
            .range(1, 3600)
            .by_default(120);
        stand_panel_kit::declare_credential_keys(s, "benchowner", "owner login (3-64 of a-z 0-9 . _ @ -)",
                                                 "owner password (12-256 bytes)");
        s.integer("totp_step_s", "TOTP period when the panel's otpauth URI names none").range(1, 300).by_default(30);
        s.string("image", "docker mode: an image whose entrypoint is the mistgate binary").by_default("mistgate:0.1.32");
        s.strings("setup_command",
                  "run once per data dir before the first start; prints 'Admin URL:' and 'Setup link: ...#TOKEN'. [] = "
                  "the server prints them itself (read from its output). Default: mistgate setup --data-dir "
                  "${data_dir} --public-url http://localhost:${port}; docker mode: docker run --rm <image> setup");
        return s;
    }();
    return spec;
}

Options read_options(const json::object& config) {
    auto cfg = config_spec().read(config);
    Options o;
    o.launch = stand_panel_kit::read_launch_config(cfg);
    o.host = cfg.string("host");
    o.port = static_cast<int>(cfg.integer("port"));
    o.agent_port = static_cast<int>(cfg.integer("agent_port"));
    o.node_command = cfg.strings("node_command");
    o.node_ready_s = static_cast<int>(cfg.integer("node_ready_timeout_s"));
    o.given = stand_panel_kit::read_given_credentials(cfg);
    o.totp_step = static_cast<unsigned>(cfg.integer("totp_step_s"));
    o.image = cfg.string("image");
    o.setup_command = cfg.optional_strings("setup_command").value_or(default_setup_command(o.launch, o.image));
    cfg.finish();
    if (o.given.username.empty()) throw stand::cpp::ConfigError("config.username: must not be empty");
    return o;
}

}  // namespace stand_mistgate
