"""The PasarGuard double's nodes (app/routers/node.py, app/models/node.py and
app/operation/node.py at v5.2.1; shapes held to
tests/data/real-panels/pasarguard-5.2.1-node/recording.json).

  * GET /api/nodes -> {"nodes": [NodeResponse], "total": n}
  * POST /api/node NodeCreate -> 201 NodeResponse (status "connecting"); 409
    'Node "<name>" already exists'; 404 "Core config not found"; 422 for
    what NodeCreate's validators refuse (address, port, a server_ca that is
    not one PEM certificate or holds a private key or is over 2048
    characters, an api_key that is not a UUID, connection_type, keep_alive).
  * GET /api/node/{id}, PUT /api/node/{id} (NodeModify: every field
    optional) -> 200 NodeResponse; 404 "Node not found".
  * Connecting, as the panel does in the background after a create, a
    modify and its own start: TLS to address:port trusting only server_ca
    (name checked against the address), then the API key
    (pasarguard_node_double.py's line protocol). "connected" with the node's
    and Xray's versions, else "error" with the reason as message.
"""

import re
import socket
import ssl
import threading
import uuid

from common.panel_double import json_response

NODE_FIELDS = ("name", "address", "port", "api_port", "usage_coefficient", "connection_type",
               "server_ca", "keep_alive", "core_config_id", "api_key", "data_limit",
               "data_limit_reset_strategy", "reset_time", "default_timeout", "internal_timeout",
               "proxy_url")
DEFAULTS = {"port": 62050, "api_port": 62051, "usage_coefficient": 1.0, "data_limit": 0,
            "data_limit_reset_strategy": "no_reset", "reset_time": -1, "default_timeout": 10,
            "internal_timeout": 15, "proxy_url": ""}  # the real v5.2.1 answers "" for none
REQUIRED = ("name", "address", "connection_type", "server_ca", "keep_alive", "core_config_id",
            "api_key")
CERT_RE = re.compile(r"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", re.S)
KEY_RE = re.compile(r"-----BEGIN (?:RSA )?PRIVATE KEY-----")
DOMAIN_RE = re.compile(r"^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,14}$")
IPV4_RE = re.compile(r"^(\d{1,3}\.){3}\d{1,3}$")


def node_problems(body, partial):
    """NodeCreate's (partial: NodeModify's) 422 errors, {field: message}."""
    errs = {}
    if not partial:
        for k in REQUIRED:
            if k not in body:
                errs[k] = "Field required"
    addr = body.get("address")
    if isinstance(addr, str) and addr and not (IPV4_RE.match(addr) or addr.lower() == "localhost"
                                               or DOMAIN_RE.match(addr)):
        errs["address"] = "Value error, Invalid address format, must be a valid IPv4/IPv6 or domain"
    port = body.get("port")
    if port is not None and (not isinstance(port, int) or not 1 <= port <= 65535):
        errs["port"] = "Value error, Port must be between 1 and 65535"
    ca = body.get("server_ca")
    if isinstance(ca, str):
        ca = ca.strip()
        if not CERT_RE.search(ca):
            errs["server_ca"] = "Value error, Invalid certificate format - must contain PEM certificate blocks"
        elif KEY_RE.search(ca):
            errs["server_ca"] = "Value error, Certificate contains private key material"
        elif len(ca) > 2048:
            errs["server_ca"] = "Value error, Certificate too large (max 2048 characters)"
    key = body.get("api_key")
    if isinstance(key, str) and key:
        try:
            uuid.UUID(key)
        except ValueError:
            errs["api_key"] = "Value error, Invalid UUID format for api_key"
    ct = body.get("connection_type")
    if ct is not None and ct not in ("grpc", "rest"):
        errs["connection_type"] = "Input should be 'grpc' or 'rest'"
    return errs


def connect(node):
    """(status, message, node_version, xray_version) of one connection attempt."""
    ctx = ssl.create_default_context(cadata=node["server_ca"])
    try:
        with socket.create_connection((node["address"], node["port"]), timeout=5) as raw, \
                ctx.wrap_socket(raw, server_hostname=node["address"]) as conn:
            conn.sendall(("API_KEY %s\n" % node["api_key"]).encode())
            answer = conn.recv(200).decode(errors="replace").split()
    except (OSError, ssl.SSLError) as e:
        return "error", "Failed to connect: %s" % e, None, None
    if len(answer) == 3 and answer[0] == "ok":
        return "connected", "", answer[1], answer[2]  # v5.2.1: a string once connected
    return "error", "Unauthenticated: invalid api key", None, None


class NodesMixin:
    def setup_nodes(self):
        self.state.setdefault("nodes", [])
        R, A = self.route, dict(admin=True)
        R("GET", r"/api/nodes", self.h_nodes, name="nodes", **A)
        R("POST", r"/api/node", self.h_node_create, name="node_create", **A)
        R("GET", r"/api/node/(?P<id>\d+)", self.h_node_get, name="node_get", **A)
        R("PUT", r"/api/node/(?P<id>\d+)", self.h_node_modify, name="node_modify", **A)
        for n in self.state["nodes"]:  # the panel connects its nodes when it starts
            self._connect_later(n["id"])

    def _node_view(self, n):
        return dict(n, core_version=n["xray_version"])

    def _node(self, req):
        return next((n for n in self.state["nodes"] if n["id"] == int(req.params["id"])), None)

    def _connect_later(self, node_id):
        def run():
            with self.lock:
                n = next((x for x in self.state["nodes"] if x["id"] == node_id), None)
                target = dict(n) if n else None
            if target is None:
                return
            status, message, node_version, xray_version = connect(target)
            with self.lock:
                n = next((x for x in self.state["nodes"] if x["id"] == node_id), None)
                if n is None:
                    return
                n.update(status=status, message=message, node_version=node_version,
                         xray_version=xray_version)
                self.save_state()
        threading.Thread(target=run, daemon=True).start()

    def h_nodes(self, req):
        _, e = self._auth(req)
        if e:
            return e
        nodes = [self._node_view(n) for n in self.state["nodes"]]
        return json_response({"nodes": nodes, "total": len(nodes)})

    def _checked(self, body, partial):
        errs = node_problems(body, partial)
        if errs:
            return self.detail(errs, 422)
        core = body.get("core_config_id")
        if core is not None and not any(c["id"] == core for c in self.state["cores"]):
            return self.detail("Core config not found", 404)
        name = body.get("name")
        if name is not None and any(n["name"] == name for n in self.state["nodes"]
                                    if not partial or n["id"] != partial):
            return self.detail('Node "%s" already exists' % name, 409)
        return None

    def h_node_create(self, req):
        _, body, e = self._authed_body(req)
        e = e or self._checked(body, None)
        if e:
            return e
        n = dict(DEFAULTS)
        n.update({k: body[k] for k in NODE_FIELDS if k in body})
        n["server_ca"] = n["server_ca"].strip()
        n.update(id=max((x["id"] for x in self.state["nodes"]), default=0) + 1,
                 status="connecting", message=None, xray_version=None, node_version=None,
                 uplink=0, downlink=0, lifetime_uplink=0, lifetime_downlink=0)
        self.state["nodes"].append(n)
        self.save_state()
        self._connect_later(n["id"])
        return json_response(self._node_view(n), 201)

    def h_node_get(self, req):
        _, e = self._auth(req)
        if e:
            return e
        n = self._node(req)
        return json_response(self._node_view(n)) if n else self.detail("Node not found", 404)

    def h_node_modify(self, req):
        _, body, e = self._authed_body(req)
        n = None if e else self._node(req)
        if not e and n is None:
            e = self.detail("Node not found", 404)
        e = e or self._checked(body, n["id"] if n else None)
        if e:
            return e
        n.update({k: body[k] for k in NODE_FIELDS if body.get(k) is not None})
        n["server_ca"] = n["server_ca"].strip()
        # v5.2.1 answers a modify with the versions cleared until it reconnects
        n.update(status="connecting", message=None, node_version=None, xray_version=None)
        self.save_state()
        self._connect_later(n["id"])
        return json_response(self._node_view(n))
