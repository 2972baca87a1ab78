"""The node-agent side of the Mistgate panel double: enrollments, the agent endpoint, the desired state.

What it follows in Mistgate's source (Mistgate/mistgate, read through the stored index):
  * internal/panel/fleet/admin_node.go  CreateEnrollment: a one-time token (lower-case base32 of 32 random
    bytes, 1 h unless ttlSeconds), installCommand "chmod +x /root/mistgate-node && /root/mistgate-node enroll
    --panel <addr> --sni <agent sni> --ca-sha256 <hex> --token <token> && /root/mistgate-node install",
    caFingerprint "sha256:<hex>"; with nodeId it re-enrolls an existing node; a taken name is already_exists
    "name_taken"; the node is NODE_STATUS_PENDING until its agent talks.
  * internal/panel/fleet/enroll.go  EnrollmentService/Enroll: api_version must be 1 (failed_precondition), an
    unknown, expired or used token is unauthenticated "enrollment token unknown, expired or used".
  * proto/mistgate/agent/v1/agent.proto  the agent endpoint is selected by a secret SNI on the main listener (or
    a separate --agent-listen); Hello -> HelloAck + DesiredState; ApplyResult.inbounds[].cert_pin_sha256 is the
    pin of the self-signed certificate the inbound serves; StatsBatch doubles as heartbeat (stats_interval_s).
  * internal/panel/access/sub.go  an inbound with a self-signed certificate gets no subscription line until the
    node has reported that pin ("the node has not reported its certificate yet").

Simplified (the double speaks plain HTTP/1.1): TLS with the panel CA, the CSR and mTLS are not modelled. The CA
is random bytes whose SHA-256 is the fingerprint; Enroll checks only that csrDer is non-empty base64; the node
"certificate" is random bytes and the agent proves it with the header X-Mistgate-Double-Cert: <sha256 hex of
it> instead of a client certificate; the secret SNI travels as the Host header. AgentService/Connect, a
bidirectional stream in Mistgate, is one unary POST per node message here, answered with the panel's messages
{"messages": [...]}; the agent polls every statsIntervalS. Users' credentials are not pushed to the node.
"""

import base64
import hashlib
import json
import re
import secrets
import time
import urllib.parse

from connect_wire import ConnectError, connect_error, request_message
from common.panel_double import json_response

AGENT_API = "/mistgate.agent.v1."
CERT_HEADER = "X-Mistgate-Double-Cert"
ENROLL_TTL_DEFAULT = 3600
LIVENESS_S = 90  # NodeSettings liveness timeout default (agent.proto)


def pem(kind, der):
    b = base64.b64encode(der).decode()
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (
        kind, "\n".join(b[i:i + 64] for i in range(0, len(b), 64)), kind)


class AgentSide:
    """Mixed into MistgateDouble; uses self.state, self.args, self.save_state, self.route."""

    @classmethod
    def add_agent_arguments(cls, p):
        p.add_argument("--agent-listen", help="host:port of a separate agent listener (else the main one, by SNI)")
        p.add_argument("--agent-addr", help="host:port the install command names (default: --agent-listen, "
                                            "else the public URL's host and port)")
        p.add_argument("--stats-interval", type=int, default=10, help="NodeSettings.stats_interval_s")

    def setup_agent_side(self):
        st = self.state
        st.setdefault("ca_der", base64.b64encode(secrets.token_bytes(64)).decode())
        st.setdefault("agent_label", "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789")
                                             for _ in range(16)))
        st.setdefault("enrollments", {})
        listener = "main"
        if self.args.agent_listen:
            self.add_listener("agent", int(self.args.agent_listen.rsplit(":", 1)[1]))
            listener = "agent"
        self.agent_listener = listener
        for svc, fn in (("EnrollmentService/Enroll", self.agent_enroll),
                        ("AgentService/Connect", self.agent_connect)):
            self.route("POST", re.escape(AGENT_API + svc), self._agent_handler(fn), name="agent " + svc,
                       listener=listener)

    # ------------------------------------------------------------ admin side
    def ca_fingerprint(self):
        return hashlib.sha256(base64.b64decode(self.state["ca_der"])).hexdigest()

    def agent_sni(self):
        host = urllib.parse.urlsplit(self.public_url()).hostname or "localhost"
        return "%s.%s" % (self.state["agent_label"], host)

    def agent_addr(self):
        if self.args.agent_addr:
            return self.args.agent_addr
        if self.args.agent_listen:
            return self.args.agent_listen
        return urllib.parse.urlsplit(self.public_url()).netloc

    def create_enrollment(self, req, b, sess):
        nodes = self.state["nodes"]
        ttl = int(b.get("ttlSeconds") or 0) or ENROLL_TTL_DEFAULT
        if ttl > 86400:
            raise ConnectError("invalid_argument", "ttl_seconds must be at most 86400")
        if b.get("nodeId"):
            node = nodes.get(b["nodeId"])
            if not node:
                raise ConnectError("not_found", "node not found")
        else:
            name = str(b.get("name", "")).lower()
            if not re.fullmatch(r"[a-z0-9-]{2,24}", name):
                raise ConnectError("invalid_argument", "name must match [a-z0-9-]{2,24}")
            if not re.fullmatch(r"[A-Za-z0-9.:-]{1,253}", str(b.get("address", ""))):
                raise ConnectError("invalid_argument", "address must be a host name or an IP")
            if any(n["name"] == name for n in nodes.values()):
                raise ConnectError("already_exists", "name_taken")
            node = {"id": "nod_" + secrets.token_hex(8), "name": name, "address": b["address"],
                    "countryCode": str(b.get("countryCode", "")).upper(), "enrolled": False,
                    "lastSeen": 0, "revision": 1, "applied": 0}
            nodes[node["id"]] = node
        token = base64.b32encode(secrets.token_bytes(32)).decode().rstrip("=").lower()
        expires = int(time.time()) + ttl
        self.state["enrollments"][hashlib.sha256(token.encode()).hexdigest()] = {
            "nodeId": node["id"], "expires": expires, "used": False}
        self.save_state()
        cmd = ("chmod +x /root/mistgate-node && /root/mistgate-node enroll --panel %s --sni %s --ca-sha256 %s "
               "--token %s && /root/mistgate-node install" % (self.agent_addr(), self.agent_sni(),
                                                              self.ca_fingerprint(), token))
        return json_response({"node": self.node_obj(node), "installCommand": cmd,
                              "caFingerprint": "sha256:" + self.ca_fingerprint(), "expiresUnix": str(expires)})

    def node_status(self, n):
        if time.time() - n["lastSeen"] < LIVENESS_S:
            return "NODE_STATUS_ONLINE"
        return "NODE_STATUS_DOWN" if n["enrolled"] else "NODE_STATUS_PENDING"

    def node_obj(self, n):
        out = {"id": n["id"], "name": n["name"], "address": n["address"], "countryCode": n["countryCode"],
               "status": self.node_status(n)}
        if out["status"] == "NODE_STATUS_PENDING":  # admin_node.go statusOfView
            expires = max([e["expires"] for e in self.state["enrollments"].values()
                           if e["nodeId"] == n["id"] and not e["used"] and e["expires"] > time.time()] or [0])
            out["reason"] = ({"code": "enrollment_pending",
                              "params": {"expires_in_minutes": str(int((expires - time.time()) // 60)),
                                         "expires_unix": str(int(expires))}}
                             if expires else {"code": "enrollment_expired"})
        return out

    def inbounds_changed(self, node_id):
        """The node's desired state has a new revision (an inbound was added or changed)."""
        node = self.state["nodes"][node_id]
        node["revision"] += 1

    # ------------------------------------------------------------ agent side
    def _agent_handler(self, fn):
        def handler(req):
            if self.agent_listener == "main" and (req.header("Host") or "").split(":")[0] != self.agent_sni():
                return self.decoy_404()  # without the secret SNI the agent endpoint does not exist
            body, refused = request_message(req)
            if refused:
                return refused
            try:
                return fn(req, body)
            except ConnectError as e:
                return connect_error(e.code, e.message, e.details)
        return handler

    def agent_enroll(self, req, b):
        if int(b.get("apiVersion") or 0) != 1:
            raise ConnectError("failed_precondition", "api_version unsupported")
        key = hashlib.sha256(str(b.get("enrollmentToken", "")).encode()).hexdigest()
        e = self.state["enrollments"].get(key)
        if not e or e["used"] or e["expires"] < time.time():
            raise ConnectError("unauthenticated", "enrollment token unknown, expired or used")
        try:
            if not base64.b64decode(str(b.get("csrDer", "")), validate=True):
                raise ValueError("empty")
        except ValueError:
            raise ConnectError("invalid_argument", "bad CSR")
        e["used"] = True
        node = self.state["nodes"][e["nodeId"]]
        cert = secrets.token_bytes(64)
        node["certFp"] = hashlib.sha256(cert).hexdigest()
        node["enrolled"] = True
        node["applied"] = 0
        self.save_state()
        now = int(time.time())
        return json_response({"nodeId": node["id"], "certificatePem": pem("CERTIFICATE", cert),
                              "caCertificatePem": pem("CERTIFICATE", base64.b64decode(self.state["ca_der"])),
                              "notAfterUnix": str(now + 30 * 86400), "renewAfterUnix": str(now + 20 * 86400)})

    def desired_state(self, node):
        inbounds = []
        for inb in sorted(self.state["inbounds"].values(), key=lambda i: i["id"]):
            if inb["nodeId"] != node["id"]:
                continue
            settings = json.loads(self.state["profiles"][inb["profileId"]]["settingsJson"])
            self_signed = settings.get("tls_mode") == "self_signed"
            inbounds.append({"inboundId": inb["id"], "credsReplace": True, "spec": {
                "inboundId": inb["id"], "protocol": "hysteria2", "profileId": inb["profileId"], "specVersion": "1",
                "enabled": True, "listen": {"network": "udp", "port": inb["port"]},
                "tls": {"mode": "TLS_MODE_SELF_SIGNED" if self_signed else "TLS_MODE_ACME",
                        "serverName": inb["tlsServerName"]},
                "settingsJson": json.dumps(settings)}})
        state_hash = hashlib.sha256(json.dumps(inbounds, sort_keys=True).encode()).hexdigest()
        return {"desiredState": {"revision": str(node["revision"]), "stateHash": state_hash, "inbounds": inbounds,
                                 "settings": self.node_settings(node)}}

    def node_settings(self, node):
        return {"statsIntervalS": self.args.stats_interval, "countryCode": node["countryCode"]}

    def agent_connect(self, req, b):
        fp = req.header(CERT_HEADER) or ""
        node = next((n for n in self.state["nodes"].values() if n.get("certFp") == fp and fp), None)
        if node is None:
            raise ConnectError("unauthenticated", "no node certificate")
        node["lastSeen"] = time.time()
        out = []
        if "hello" in b:
            out.append({"helloAck": {"ackedSeq": "0", "serverTimeUnix": str(int(time.time())),
                                     "settings": self.node_settings(node)}})
            node["applied"] = 0  # a new stream: the panel sends the full state
        elif "applyResult" in b:
            r = b["applyResult"]
            for ir in r.get("inbounds") or []:
                inb = self.state["inbounds"].get(ir.get("inboundId"))
                if inb and inb["nodeId"] == node["id"] and re.fullmatch(r"[0-9a-f]{64}", ir.get("certPinSha256", "")):
                    inb["certPin"] = ir["certPinSha256"]
            node["applied"] = int(r.get("revision") or 0)
        elif "stats" in b:
            out.append({"ack": {"upToSeq": str(b.get("seq") or "0")}})
        else:
            raise ConnectError("invalid_argument", "unknown message")
        if node["applied"] < node["revision"]:
            out.append(self.desired_state(node))
        self.save_state()
        return json_response({"messages": out})
