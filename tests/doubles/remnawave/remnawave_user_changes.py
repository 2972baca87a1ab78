"""The Remnawave double's changes to a user: its switch and PATCH /api/users (backend 3.3.2).

As backend 3.3.2 has them (src/modules/users/controllers/users.controller.ts, users.service.ts; contract
commands/users/actions/enable-user.command.ts, disable-user.command.ts, update-user.command.ts):
  * POST /api/users/{userId}/actions/disable -> 200 {"response": user} with status DISABLED; a user already
    DISABLED -> 400 A029 "User already disabled". POST .../enable -> ACTIVE from any other status; a user
    already ACTIVE -> 400 A030 "User already enabled". userId is the numeric id (numberParamSchema).
  * PATCH /api/users {id | username, status?, trafficLimitBytes?, trafficLimitStrategy?} -> 200 {"response":
    user}: the id wins over the username; fields left out stay; status ACTIVE lifts any other status, DISABLED
    applies to an ACTIVE user only; a trafficLimitBytes (0 = unlimited) resets lastTriggeredThreshold and lifts
    LIMITED when it is 0 or above the old limit. No such user -> 404 A025. The contract's other fields
    (expireAt, description, tag, squads, ...) are refused (400) as not modelled by the double.
  * userTraffic.usedTrafficBytes stays 0: the double carries no traffic.
"""

STATUSES = ("ACTIVE", "DISABLED")
RESET_PERIODS = ("NO_RESET", "DAY", "WEEK", "MONTH", "MONTH_ROLLING")
MODELLED = ("id", "username", "status", "trafficLimitBytes", "trafficLimitStrategy")


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def update_issues(body):
    """The nestjs-zod issues of a PATCH /api/users body (UpdateUserCommand.RequestBodySchema), [] when valid."""
    if not isinstance(body, dict):
        return [{"code": "invalid_type", "expected": "object", "path": [],
                 "message": "Invalid input: expected object"}]
    issues = []
    checks = (("id", lambda v: _number(v), "Invalid input: expected number"),
              ("username", lambda v: isinstance(v, str), "Invalid input: expected string"),
              ("status", lambda v: v in STATUSES, "Invalid option: expected one of \"ACTIVE\"|\"DISABLED\""),
              ("trafficLimitBytes", lambda v: _number(v) and v >= 0, "Too small: expected number to be >=0"),
              ("trafficLimitStrategy", lambda v: v in RESET_PERIODS, "Invalid option"))
    for key, ok, message in checks:
        if key in body and not ok(body[key]):
            issues.append({"code": "invalid_value", "path": [key], "message": message})
    for key in sorted(set(body) - set(MODELLED)):
        issues.append({"code": "custom", "path": [key], "message": "not modelled by the double"})
    if not issues and not (body.get("username") or body.get("id")):
        issues.append({"code": "custom", "path": [], "message": "At least one of username, id must be provided"})
    return issues


def apply_update(u, body):
    """users.service.ts updateUser's rules on the stored user `u`."""
    status = body.get("status")
    if status == "ACTIVE" and u["status"] != "ACTIVE":
        u["status"] = "ACTIVE"
    elif status == "DISABLED" and u["status"] == "ACTIVE":
        u["status"] = "DISABLED"
    if "trafficLimitBytes" in body:
        limit = int(body["trafficLimitBytes"])
        if u["status"] == "LIMITED" and (limit > u["trafficLimitBytes"] or limit == 0):
            u["status"] = "ACTIVE"
        u["trafficLimitBytes"] = limit
        u["lastTriggeredThreshold"] = 0
    if "trafficLimitStrategy" in body:
        u["trafficLimitStrategy"] = body["trafficLimitStrategy"]


class UserChangesMixin:
    """Routes and handlers; the double provides _auth, _user_at, _find_user, _user_view, ok, err,
    zod_error, save_state."""

    def user_change_routes(self, route, **admin):
        for method, path, handler, name in (
                ("POST", r"/api/users/(?P<userId>[^/]+)/actions/enable/?", self.h_user_enable, "users_enable"),
                ("POST", r"/api/users/(?P<userId>[^/]+)/actions/disable/?", self.h_user_disable, "users_disable"),
                ("PATCH", r"/api/users/?", self.h_user_update, "users_update")):
            route(method, path, self._authed(handler), name=name, **admin)

    def _authed(self, handler):
        def run(req):
            _, e = self._auth(req)
            return e or handler(req)
        return run

    def h_user_enable(self, req):
        return self._switch(req, "ACTIVE", "USER_ALREADY_ENABLED")

    def h_user_disable(self, req):
        return self._switch(req, "DISABLED", "USER_ALREADY_DISABLED")

    def _switch(self, req, status, already):
        u, e = self._user_at(req)
        if e or u["status"] == status:
            return e or self.err(req, already)
        u["status"] = status
        return self._saved(u)

    def h_user_update(self, req):
        body = req.json()
        issues = update_issues(body)
        if issues:
            return self.zod_error(issues)
        u = (self._find_user(id=body["id"]) if body.get("id") is not None
             else self._find_user(username=body["username"]))
        if u is None:
            return self.err(req, "USER_NOT_FOUND")
        apply_update(u, body)
        return self._saved(u)

    def _saved(self, u):
        self.save_state()
        return self.ok(self._user_view(u))
