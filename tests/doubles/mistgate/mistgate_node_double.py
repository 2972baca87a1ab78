#!/usr/bin/env python3
"""Stand-in for Mistgate's node agent `mistgate-node` (test infrastructure only; see ../README.md).

It speaks to the Mistgate panel double (mistgate_double.py, agent_side.py) as the real agent speaks to the
panel, as far as Mistgate's source shows (Mistgate/mistgate, read through the stored index):
  * cmd/mistgate-node/enroll.go  `enroll --panel <host:port> --sni <name> --ca-sha256 <hex> (--token <t> |
    --token-stdin | MISTGATE_ENROLL_TOKEN) [--state-dir dir] [--force]`; all four are required (exit 2); on
    success it prints "enrolled as <node id> with <panel>; state in <dir>" and the next step.
  * proto/mistgate/agent/v1/agent.proto  EnrollmentService/Enroll {enrollmentToken, csrDer, agentVersion,
    apiVersion: 1}; the agent accepts the panel only when the CA certificate's SHA-256 is the --ca-sha256 of
    the install command; `run` holds one AgentService/Connect session: Hello, then it applies each DesiredState
    and answers ApplyResult with, per inbound, the SHA-256 of the self-signed certificate it serves
    (cert_pin_sha256); StatsBatch every stats_interval_s is the heartbeat; it reconnects with backoff 1 s -> 60 s
    (factor 2); `run` exits with code 78 when the node is not enrolled.

Simplified: plain HTTP instead of TLS/mTLS (the secret SNI is sent as the Host header, the node certificate is
proven by the header X-Mistgate-Double-Cert), Connect is one POST per message instead of a stream (see
agent_side.py), the CSR is random bytes, and no Hysteria2 server is started: the "certificate" of an inbound is
random bytes kept in the state dir (mode 0600), so its pin stays the same across restarts of the agent.

    python3 mistgate_node_double.py enroll --panel 127.0.0.1:18080 --sni <sni> --ca-sha256 <hex> \\
        --token <token> --state-dir /tmp/mg-node
    python3 mistgate_node_double.py run --state-dir /tmp/mg-node
"""

import argparse
import base64
import hashlib
import json
import os
import secrets
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request

AGENT_API = "/mistgate.agent.v1."
CERT_HEADER = "X-Mistgate-Double-Cert"
EXIT_NOT_ENROLLED = 78
VERSION = "double"


def write_private(path, obj):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp.")
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(obj, f)
    os.replace(tmp, path)


def pem_der(text):
    body = "".join(line for line in text.splitlines() if line and not line.startswith("-----"))
    return base64.b64decode(body)


class RpcError(Exception):
    def __init__(self, status, body):
        Exception.__init__(self, "HTTP %d: %s" % (status, body[:200]))
        self.status = status


def rpc(panel, sni, procedure, message, cert_fp=None, timeout=15):
    headers = {"Content-Type": "application/json", "Host": sni}
    if cert_fp:
        headers[CERT_HEADER] = cert_fp
    req = urllib.request.Request("http://%s%s%s" % (panel, AGENT_API, procedure),
                                 data=json.dumps(message).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        raise RpcError(e.code, e.read().decode("utf-8", "replace"))


def identity_path(state_dir):
    return os.path.join(state_dir, "identity.json")


def cmd_enroll(argv):
    p = argparse.ArgumentParser(prog="mistgate-node enroll")
    p.add_argument("--panel", default=os.environ.get("MISTGATE_PANEL", ""))
    p.add_argument("--sni", default=os.environ.get("MISTGATE_AGENT_SNI", ""))
    p.add_argument("--ca-sha256", default=os.environ.get("MISTGATE_CA_SHA256", ""))
    p.add_argument("--token", default="")
    p.add_argument("--token-stdin", action="store_true")
    p.add_argument("--state-dir", default=os.environ.get("MISTGATE_NODE_STATE_DIR", "/var/lib/mistgate-node"))
    p.add_argument("--force", action="store_true")
    a = p.parse_args(argv)
    token = a.token or os.environ.get("MISTGATE_ENROLL_TOKEN", "")
    if a.token_stdin:
        token = sys.stdin.read().strip()
    if not (a.panel and a.sni and a.ca_sha256 and token):
        print("enroll: --panel, --sni, --ca-sha256 and a token source are required", file=sys.stderr)
        return 2
    os.makedirs(a.state_dir, mode=0o700, exist_ok=True)
    if os.path.exists(identity_path(a.state_dir)) and not a.force:
        print("enroll: %s already holds an identity (--force replaces it)" % a.state_dir, file=sys.stderr)
        return 1
    csr = secrets.token_bytes(72)
    try:
        r = rpc(a.panel, a.sni, "EnrollmentService/Enroll",
                {"enrollmentToken": token, "csrDer": base64.b64encode(csr).decode(), "agentVersion": VERSION,
                 "apiVersion": 1})
    except (RpcError, OSError) as e:
        print("enroll: %s" % e, file=sys.stderr)
        return 1
    if hashlib.sha256(pem_der(r["caCertificatePem"])).hexdigest() != a.ca_sha256.lower():
        print("enroll: the panel's CA does not match --ca-sha256", file=sys.stderr)
        return 1
    cert_fp = hashlib.sha256(pem_der(r["certificatePem"])).hexdigest()
    write_private(identity_path(a.state_dir), {"nodeId": r["nodeId"], "panel": a.panel, "sni": a.sni,
                                               "certFp": cert_fp, "caPem": r["caCertificatePem"]})
    print("enrolled as %s with %s; state in %s\nnext: mistgate-node install --state-dir %s   "
          "(or, in the foreground: mistgate-node run --state-dir %s)" % (r["nodeId"], a.panel, a.state_dir,
                                                                          a.state_dir, a.state_dir), flush=True)
    return 0


class Agent:
    def __init__(self, state_dir, ident):
        self.state_dir, self.ident = state_dir, ident
        self.certs_path = os.path.join(state_dir, "inbound-certs.json")
        self.certs = {}
        if os.path.exists(self.certs_path):
            with open(self.certs_path, encoding="utf-8") as f:
                self.certs = json.load(f)
        self.seq = 0
        self.interval = 10
        self.applied_revision, self.applied_hash = 0, ""

    def send(self, message):
        r = rpc(self.ident["panel"], self.ident["sni"], "AgentService/Connect", message, self.ident["certFp"])
        for m in r.get("messages") or []:
            if "helloAck" in m:
                self.interval = int(m["helloAck"].get("settings", {}).get("statsIntervalS") or self.interval)
            elif "desiredState" in m:
                self.apply(m["desiredState"])

    def pin(self, inbound_id):
        """The SHA-256 of the DER certificate an inbound serves (a self-signed one, made once per inbound)."""
        if inbound_id not in self.certs:
            self.certs[inbound_id] = base64.b64encode(secrets.token_bytes(96)).decode()
            write_private(self.certs_path, self.certs)
        return hashlib.sha256(base64.b64decode(self.certs[inbound_id])).hexdigest()

    def apply(self, desired):
        results = []
        for inb in desired.get("inbounds") or []:
            r = {"inboundId": inb["inboundId"], "state": "INBOUND_RUN_STATE_RUNNING"}
            if (inb.get("spec") or {}).get("tls", {}).get("mode") == "TLS_MODE_SELF_SIGNED":
                r["certPinSha256"] = self.pin(inb["inboundId"])
            results.append(r)
        self.applied_revision, self.applied_hash = int(desired.get("revision") or 0), desired.get("stateHash", "")
        print("applied revision %d: %d inbound(s)" % (self.applied_revision, len(results)), flush=True)
        self.send({"applyResult": {"revision": str(self.applied_revision), "status": "APPLY_STATUS_APPLIED",
                                   "stateHash": self.applied_hash, "inbounds": results}})

    def session(self):
        self.send({"hello": {"nodeId": self.ident["nodeId"], "agentVersion": VERSION, "apiVersion": 1,
                             "instanceId": secrets.token_hex(8), "nextSeq": str(self.seq + 1),
                             "appliedRevision": str(self.applied_revision),
                             "appliedStateHash": self.applied_hash}})
        print("connected to %s as %s" % (self.ident["panel"], self.ident["nodeId"]), flush=True)
        started = time.monotonic()
        while True:
            time.sleep(self.interval)
            self.seq += 1
            now = int(time.time())
            self.send({"seq": str(self.seq), "stats": {"intervalStartUnix": str(now - self.interval),
                                                      "intervalEndUnix": str(now)}})
            if time.monotonic() - started > 60:
                return True  # a stream that lived 60 s resets the backoff

    def run(self):
        backoff = 1.0
        while True:
            try:
                if self.session():
                    backoff = 1.0
            except (RpcError, OSError, ValueError) as e:
                print("link lost: %s; again in %.0f s" % (e, backoff), flush=True)
                time.sleep(backoff * (0.8 + 0.4 * secrets.randbelow(1000) / 1000))
                backoff = min(backoff * 2, 60.0)


def cmd_run(argv):
    p = argparse.ArgumentParser(prog="mistgate-node run")
    p.add_argument("--state-dir", default=os.environ.get("MISTGATE_NODE_STATE_DIR", "/var/lib/mistgate-node"))
    a = p.parse_args(argv)
    if not os.path.exists(identity_path(a.state_dir)):
        print("run: not enrolled (no identity in %s): run `mistgate-node enroll` first" % a.state_dir,
              file=sys.stderr)
        return EXIT_NOT_ENROLLED
    with open(identity_path(a.state_dir), encoding="utf-8") as f:
        ident = json.load(f)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Agent(a.state_dir, ident).run()
    return 0


def main(argv):
    commands = {"enroll": cmd_enroll, "run": cmd_run}
    if not argv or argv[0] not in commands:
        print("usage: mistgate-node (enroll|run) ...", file=sys.stderr)
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
