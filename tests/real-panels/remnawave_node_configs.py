#!/usr/bin/env python3
"""Writes Remnawave's plugin config and compat target with its node, from
what the two prepare scripts made (prepare_remnawave_node.sh runs it when
given PANEL_OUT; it runs alone too):

    remnawave_node_configs.py PANEL_OUT NODE_OUT [PORT [NODE_PORT [INBOUND_PORT]]]

PANEL_OUT is the OUT of prepare_remnawave.sh (remnawave-plugin.json,
remnawave.json), NODE_OUT the OUT of prepare_remnawave_node.sh (node.json).
It writes, beside the backend's two files:

    PANEL_OUT/remnawave-node-plugin.json  the backend's plugin config with the
        node's keys (node.json), "run_node": true, "protocol": "hysteria2",
        "node_port" and "inbound_port" (`stand run --plugin remnawave=@FILE`)
    PANEL_OUT/remnawave-node.json         the compat target wrapping it, the
        backend target's checks' keys without "unserved_links": the node
        serves the links (`stand compat remnawave --target-config FILE`)

Ports: the backend takes PORT to PORT + 3 (API, metrics, Redis, PostgreSQL,
as prepare_remnawave.sh lays them out), the node PORT + 4 (NODE_PORT, TCP)
and PORT + 5 (INBOUND_PORT, the users' Hysteria 2 port, UDP), unless given.
PORT defaults to the backend config's port, so one block of six ports holds
Remnawave's; a PORT of another block moves them all (for a run beside the
backend-only target, say).
"""
import json
import os
import sys


def die(message):
    sys.exit(f"remnawave_node_configs.py: {message}")


def read_json(path, made_by):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        die(f"{path} is missing: run {made_by} first")
    except json.JSONDecodeError as e:
        die(f"{path}: {e}")


def port_arg(args, i, default):
    if len(args) <= i:
        return default
    if not args[i].isdigit() or not 0 < int(args[i]) < 65536:
        die(f"expected a port (1-65535), got {args[i]!r}")
    return int(args[i])


def main():
    args = sys.argv[1:]
    if len(args) < 2 or len(args) > 5:
        die("usage: remnawave_node_configs.py PANEL_OUT NODE_OUT [PORT [NODE_PORT [INBOUND_PORT]]]")
    panel_out, node_out = (os.path.abspath(a) for a in args[:2])
    config = read_json(os.path.join(panel_out, "remnawave-plugin.json"), f"prepare_remnawave.sh {panel_out} ...")
    target = read_json(os.path.join(panel_out, "remnawave.json"), f"prepare_remnawave.sh {panel_out} ...")
    node = read_json(os.path.join(node_out, "node.json"), f"prepare_remnawave_node.sh {node_out} ...")
    port = port_arg(args, 2, config.get("port", 13000))
    config.update({"port": port, "metrics_port": port + 1, "redis_port": port + 2, "database_port": port + 3})
    config.update({"protocol": "hysteria2", "inbound_port": port_arg(args, 4, port + 5), "run_node": True,
                   "node_port": port_arg(args, 3, port + 4)})
    config.update(node)
    target["config"] = config
    target.pop("unserved_links", None)
    for name, value in (("remnawave-node-plugin.json", config), ("remnawave-node.json", target)):
        with open(os.path.join(panel_out, name), "w") as f:
            json.dump(value, f, indent=2)
            f.write("\n")
    print(f"==> ready: stand compat remnawave --target-config {panel_out}/remnawave-node.json", file=sys.stderr)
    print(f"==>        stand run SCENARIO --plugin remnawave=@{panel_out}/remnawave-node-plugin.json", file=sys.stderr)


if __name__ == "__main__":
    main()
