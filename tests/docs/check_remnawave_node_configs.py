#!/usr/bin/env python3
"""The two files the panel pages name for Remnawave with its node
(PANEL_OUT/remnawave-node-plugin.json and remnawave-node.json), written by
tests/real-panels/remnawave_node_configs.py from configs shaped as
prepare_remnawave.sh and prepare_remnawave_node.sh write them: the plugin
takes the plugin config (`stand run --check`), the target wraps it without
unserved_links, and the six ports are one block, moved whole by PORT.

    check_remnawave_node_configs.py STAND PLUGIN_DIR SCENARIO
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WRITER = os.path.join(HERE, "..", "real-panels", "remnawave_node_configs.py")


def fake_outs(d):
    """PANEL_OUT and NODE_OUT with the files the prepare scripts write (their heredocs' keys)."""
    panel, node = os.path.join(d, "remnawave"), os.path.join(d, "remnawave-node")
    for sub in ("src", "node24/bin"):
        os.makedirs(os.path.join(panel, sub))
    for sub in ("src", "root"):
        os.makedirs(os.path.join(node, sub))
    config = {"mode": "native", "source_dir": f"{panel}/src", "node": f"{panel}/node24/bin/node", "migrations": "psql",
              "port": 13000, "metrics_port": 13001, "redis_port": 13002, "database_port": 13003,
              "env": {"DISABLE_FRONTEND": "true"}}
    target = {"config": config, "wrong_credentials": {"password": "Nope-Wrong-Pass-12"}, "users": 5,
              "ready_timeout_s": 180, "check_timeout_s": 300,
              "unserved_links": "panel only: no Remnawave node runs, nothing serves the links"}
    node_keys = {"node_source_dir": f"{node}/src", "node_root": f"{node}/root", "s6_supervise": "/usr/bin/s6-supervise"}
    for path, value in ((f"{panel}/remnawave-plugin.json", config), (f"{panel}/remnawave.json", target),
                        (f"{node}/node.json", node_keys)):
        with open(path, "w") as f:
            json.dump(value, f, indent=2)
    return panel, node, node_keys


def main():
    stand, plugins, scenario = sys.argv[1:4]
    failed = []

    def expect(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            failed.append(what)

    with tempfile.TemporaryDirectory(prefix="stand-rw-node-configs.") as d:
        panel, node, node_keys = fake_outs(d)
        for args, port in (([], 13000), (["14000"], 14000)):
            p = subprocess.run([sys.executable, WRITER, panel, node, *args], capture_output=True, text=True)
            expect(p.returncode == 0, f"remnawave_node_configs.py {' '.join(args)} exits 0 ({p.stderr.strip()})")
            config = json.load(open(f"{panel}/remnawave-node-plugin.json"))
            target = json.load(open(f"{panel}/remnawave-node.json"))
            ports = [config.get(k) for k in ("port", "metrics_port", "redis_port", "database_port", "node_port",
                                             "inbound_port")]
            expect(ports == list(range(port, port + 6)), f"the six ports are {port}..{port + 5}: {ports}")
            expect(config.get("run_node") is True and config.get("protocol") == "hysteria2", "run_node, hysteria2")
            expect(all(config.get(k) == v for k, v in node_keys.items()), "node.json's keys")
            expect(target.get("config") == config and "unserved_links" not in target and target.get("users") == 5,
                   "the target wraps the plugin config, the checks' keys kept, without unserved_links")
            check = subprocess.run([stand, "run", "--check", scenario, "--plugin-path", plugins,
                                    "--plugin", f"remnawave=@{panel}/remnawave-node-plugin.json"],
                                   capture_output=True, text=True)
            expect(check.returncode == 0, f"stand run --check takes the plugin config: {check.stdout.strip()}"
                   f" {check.stderr.strip()[-500:]}")
        p = subprocess.run([sys.executable, WRITER, panel, os.path.join(d, "nowhere")], capture_output=True, text=True)
        expect(p.returncode != 0 and "node.json is missing" in p.stderr, f"a NODE_OUT without node.json: {p.stderr.strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
