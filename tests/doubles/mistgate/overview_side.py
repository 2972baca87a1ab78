"""What Mistgate's admin UI polls every 10 s while its Overview is open, in the Mistgate panel double.

The UI (Mistgate/mistgate at 695c839, read through the stored index): web/src/screens/overview.tsx and the shell
(web/src/screens/shell.tsx, lib/fleet.ts) read FleetService/Overview {range, eventLimit: 6}; the sidebar's user
count and the first-run checklist (screens/first-run.tsx) UserService/ListUsers {pageSize: 1},
NodeService/ListNodes {} and ProfileService/ListProfiles {}; the owner's approvals badge (lib/integrations.ts)
ApprovalService/ListApprovals {awaitingOnly: true}; all every 10 s (lib/queries.ts pollMs). Each needs a session
(policy.go: Overview, ListNodes, ListProfiles levelRead; ListApprovals levelOwner, no step-up).

The answers as the panel builds them, protojson (zero values left out, 64-bit integers as strings):
  * internal/panel/fleet/admin_fleet.go Overview, proto/mistgate/admin/v1/fleet.proto: nowUnix, nodesTotal,
    nodesProblem (a node that is down), one NodeCard per node in name order (id, name, countryCode, status,
    reason, sparkBytes: 24 hourly byte counts), traffic and online: one SeriesPoint per hour, oldest first, 24
    for OVERVIEW_RANGE_24H (or unspecified), 168 for OVERVIEW_RANGE_7D, each {startUnix} plus its values.
  * internal/panel/fleet/admin_node.go ListNodes, node.proto: {nodes: [Node]}, each Node as CreateEnrollment
    returns it plus protocols (those of its inbounds) and lastSeenUnix.
  * profile.proto ListProfilesResponse: {profiles: [ProfileSummary]}: id, name, protocol, summary, nodeCount (nodes
    it is deployed on), userCount (users whose group holds it), version.
  * integrations.proto ListApprovalsResponse: {approvals, awaiting, nowUnix}.
Simplified: the double's nodes carry no traffic, metrics or online people, it keeps no events, alerts or
approvals (nothing is counted, so those fields stay out), and a Node has no awgPrepare or warp.
"""

import json
import time

from connect_wire import ConnectError
from common.panel_double import json_response

HOUR = 3600
RANGES = {None: 24, 0: 24, "OVERVIEW_RANGE_UNSPECIFIED": 24, 1: 24, "OVERVIEW_RANGE_24H": 24,
          2: 168, "OVERVIEW_RANGE_7D": 168}


def present(d):
    """protojson's view of a message: zero values left out."""
    return {k: v for k, v in d.items() if v not in (0, "", [], {}, None, False)}


class OverviewSide:
    """Mixed into MistgateDouble; uses self.state and its node_obj (agent_side.py)."""

    def overview_rpcs(self):
        return {("FleetService", "Overview"): (self.fleet_overview, True, False),
                ("NodeService", "ListNodes"): (self.list_nodes, True, False),
                ("ProfileService", "ListProfiles"): (self.list_profiles, True, False),
                ("ApprovalService", "ListApprovals"): (self.list_approvals, True, False)}

    def nodes_by_name(self):
        return sorted(self.state["nodes"].values(), key=lambda n: n["name"])

    def fleet_overview(self, req, b, sess):
        points = RANGES.get(b.get("range"))
        if points is None:
            raise ConnectError("invalid_argument", "unmarshal message: invalid value for enum field range: %r"
                               % b.get("range"))
        now = int(time.time())
        start = now - now % HOUR - (points - 1) * HOUR
        hours = [{"startUnix": str(start + i * HOUR)} for i in range(points)]
        cards = []
        for n in self.nodes_by_name():
            v = self.node_obj(n)
            cards.append(present({"id": v["id"], "name": v["name"], "countryCode": v["countryCode"],
                                  "status": v["status"], "reason": v.get("reason"), "sparkBytes": ["0"] * 24}))
        return json_response(present({
            "nowUnix": str(now), "nodesTotal": len(cards),
            "nodesProblem": sum(1 for c in cards if c["status"] == "NODE_STATUS_DOWN"),
            "nodes": cards, "traffic": hours, "online": hours}))

    def list_nodes(self, req, b, sess):
        out = []
        for n in self.nodes_by_name():
            v = self.node_obj(n)
            protocols = sorted({self.state["profiles"][i["profileId"]]["protocol"]
                                for i in self.state["inbounds"].values() if i["nodeId"] == n["id"]})
            seen = str(int(n["lastSeen"])) if n["lastSeen"] else ""
            v.update(present({"protocols": protocols, "lastSeenUnix": seen}))
            out.append(v)
        return json_response(present({"nodes": out}))

    def profile_view(self, p):
        """ProfileSummary: the summary line is the plugin's ("UDP 443 · acme")."""
        settings = json.loads(p["settingsJson"])
        inbounds = [i for i in self.state["inbounds"].values() if i["profileId"] == p["id"]]
        groups = {g["id"] for g in self.state["groups"].values() if p["id"] in g["profileIds"]}
        return present({"id": p["id"], "name": p["name"], "protocol": p["protocol"],
                        "summary": "UDP %d · %s" % (settings.get("port", 443), settings.get("tls_mode", "")),
                        "nodeCount": len({i["nodeId"] for i in inbounds}),
                        "userCount": sum(1 for u in self.state["users"].values() if u["groupId"] in groups),
                        "version": 1})

    def list_profiles(self, req, b, sess):
        profiles = sorted(self.state["profiles"].values(), key=lambda p: p["name"])
        return json_response(present({"profiles": [self.profile_view(p) for p in profiles]}))

    def list_approvals(self, req, b, sess):
        return json_response({"nowUnix": str(int(time.time()))})
