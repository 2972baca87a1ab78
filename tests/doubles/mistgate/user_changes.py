"""UserService's switch, update and read in the Mistgate panel double.

What it follows in Mistgate's source (Mistgate/mistgate at 695c839, read through the stored index):
  * proto/mistgate/admin/v1/user.proto  SetUsersEnabled {userIds, enabled} -> {users}; UpdateUser {userId, optional
    fields, dryRun} -> {user, impact}; GetUser {userId} -> {user, devices, dailyTraffic, nodeTraffic, profiles,
    nodeAccess}; User.usedBytes is up + down in the current quota period, quotaBytes 0 = unlimited.
  * internal/panel/access/user_rpc.go  SetUsersEnabled: no ids -> invalid_argument "no users given", over 5000 ->
    "too many users at once (max 5000)"; unknown ids are no error, the answer lists the known users only.
    UpdateUser and GetUser: no such user -> not_found; deviceLimit 1-100; dryRun writes nothing.
  * internal/panel/access/status.go  status: disabled > expired > limited (quota > 0 and used >= quota) > active.
  * internal/panel/access/sub.go  a subscription's lines are "empty unless Status is active".

Simplified: the double's users never expire and carry no traffic (usedBytes stays 0, so none is ever limited);
UpdateUser takes quotaBytes, deviceLimit and dryRun and refuses its other fields as not modelled; GetUser answers
user, dailyTraffic (14 zero days, oldest first) and profiles, without devices, nodeTraffic and nodeAccess.
"""

import time

from connect_wire import ConnectError
from common.panel_double import json_response

MAX_BULK = 5000
DAY = 86400
UPDATE_MODELLED = ("userId", "quotaBytes", "deviceLimit", "dryRun")


def user_status(u):
    """status.go ComputeStatus for the double's users: they have no term end and no traffic (never limited)."""
    return "USER_STATUS_DISABLED" if u.get("disabled") else "USER_STATUS_ACTIVE"


def uint64_field(body, key):
    """A protojson uint64: a JSON number or its decimal digits as a string."""
    v = body[key]
    if isinstance(v, bool) or not (isinstance(v, int) and v >= 0 or isinstance(v, str) and v.isdigit()):
        raise ConnectError("invalid_argument", "unmarshal message: invalid value for uint64 field %s: %s" % (key, v))
    n = int(v)
    if n >= 1 << 64:
        raise ConnectError("invalid_argument", "unmarshal message: value out of range for uint64 field %s" % key)
    return n


class UserChanges:
    """The UserService procedures; the double provides state, save_state and user_obj."""

    def user_change_rpcs(self):
        return {("UserService", "GetUser"): (self.get_user, True, False),
                ("UserService", "UpdateUser"): (self.update_user, True, False),
                ("UserService", "SetUsersEnabled"): (self.set_users_enabled, True, False)}

    def _user(self, b):
        u = self.state["users"].get(b.get("userId"))
        if u is None:
            raise ConnectError("not_found", "user not found")
        return u

    def set_users_enabled(self, req, b, sess):
        ids = b.get("userIds") or []
        if not ids:
            raise ConnectError("invalid_argument", "no users given")
        if len(ids) > MAX_BULK:
            raise ConnectError("invalid_argument", "too many users at once (max %d)" % MAX_BULK)
        known = [self.state["users"][i] for i in dict.fromkeys(ids) if i in self.state["users"]]
        for u in known:
            u["disabled"] = not b.get("enabled", False)
        self.save_state()
        return json_response({"users": [self.user_obj(u) for u in known]} if known else {})

    def update_user(self, req, b, sess):
        u = self._user(b)
        other = sorted(set(b) - set(UPDATE_MODELLED))
        if other:
            raise ConnectError("invalid_argument", "the double does not model UpdateUser's %s" % ", ".join(other))
        change = {}
        if "quotaBytes" in b:
            change["quotaBytes"] = uint64_field(b, "quotaBytes")
        if "deviceLimit" in b:
            if not isinstance(b["deviceLimit"], int) or not 1 <= b["deviceLimit"] <= 100:
                raise ConnectError("invalid_argument", "device limit must be 1-100")
            change["deviceLimit"] = b["deviceLimit"]
        if not b.get("dryRun"):
            u.update(change)
            self.save_state()
        return json_response({"user": self.user_obj(u)})

    def get_user(self, req, b, sess):
        u = self._user(b)
        today = int(time.time()) // DAY * DAY
        group = self.state["groups"].get(u["groupId"]) or {"profileIds": []}
        profiles = [{"id": p["id"], "name": p["name"], "protocol": p["protocol"]}
                    for p in sorted(self.state["profiles"].values(), key=lambda p: p["id"])
                    if p["id"] in group["profileIds"]]
        out = {"user": self.user_obj(u), "dailyTraffic": [{"dayUnix": str(today - d * DAY)} for d in range(13, -1, -1)]}
        if profiles:
            out["profiles"] = profiles
        return json_response(out)
