"""The Remnawave double's system statistics: what the frontend's home page polls while it is open (frontend 3.2.1,
src/shared/api/hooks/system/system.query.hooks.ts), as backend 3.3.2 answers them (src/modules/system/
system.controller.ts, system.service.ts; contract commands/system/get-stats.command.ts,
get-bandwidth-stats.command.ts, get-remnawave-health.command.ts). Each needs a JWT, the admin's (with
X-Remnawave-Client-Type: browser) or an API token (@Roles(ADMIN, API)); without one, 401.

  * GET /api/system/stats[?tz=] -> {cpu: {cores}, memory: {total, free, used} (os.totalmem, os.freemem, which
    libuv reads as MemAvailable, and their difference), uptime (the host's, s), timestamp (ms), users:
    {statusCounts: {ACTIVE, DISABLED, LIMITED, EXPIRED}, totalUsers}, onlineStats: {lastDay, lastWeek,
    neverOnline, onlineNow}, nodes: {totalOnline, totalBytesLifetime (a string)}}. The double's users never
    connect: every one is neverOnline, nothing is online and no byte was counted.
  * GET /api/system/stats/bandwidth[?tz=] -> five periods (bandwidthLastTwoDays, ...LastSevenDays, ...Last30Days,
    ...CalendarMonth, ...CurrentYear), each {current, previous, difference} as prettyBytesUtil words them: "0"
    for no bytes, which is all the double ever counts.
  * GET /api/system/health -> {runtimeMetrics: [...]}: what each process of the backend reported last
    (common/runtime-metrics/runtime-metrics.service.ts); the double is one process, reported as instance 0 of
    type "api" with its own resident set size and uptime, and 0 for the V8 heap and event-loop figures it has not.
"""

import os
import time

from common.host_stats import meminfo, process_rss, uptime_s

STATUSES = ("ACTIVE", "DISABLED", "LIMITED", "EXPIRED")
PERIODS = ("bandwidthLastTwoDays", "bandwidthLastSevenDays", "bandwidthLast30Days", "bandwidthCalendarMonth",
           "bandwidthCurrentYear")


class SystemStatsMixin:
    """Mixed into RemnawaveDouble; uses self.state, self.ok and UserChangesMixin's _authed (a JWT first)."""

    def system_routes(self, route, **admin):
        self.started_at = time.monotonic()
        for path, handler, name in ((r"/api/system/stats/?", self.h_system_stats, "system_stats"),
                                    (r"/api/system/stats/bandwidth/?", self.h_bandwidth_stats, "system_bandwidth"),
                                    (r"/api/system/health/?", self.h_system_health, "system_health")):
            route("GET", path, self._authed(handler), name=name, **admin)

    def h_system_stats(self, req):
        users = self.state["users"]
        counts = {s: sum(1 for u in users if u["status"] == s) for s in STATUSES}
        mem = meminfo()
        free = mem.get("MemAvailable", mem["MemFree"])
        return self.ok({
            "cpu": {"cores": os.cpu_count()},
            "memory": {"total": mem["MemTotal"], "free": free, "used": mem["MemTotal"] - free},
            "uptime": int(uptime_s()), "timestamp": int(time.time() * 1000),
            "users": {"statusCounts": counts, "totalUsers": len(users)},
            "onlineStats": {"lastDay": 0, "lastWeek": 0, "neverOnline": len(users), "onlineNow": 0},
            "nodes": {"totalOnline": 0, "totalBytesLifetime": "0"}})

    def h_bandwidth_stats(self, req):
        return self.ok({p: {"current": "0", "previous": "0", "difference": "0"} for p in PERIODS})

    def h_system_health(self, req):
        return self.ok({"runtimeMetrics": [{
            "rss": process_rss(), "heapUsed": 0, "heapTotal": 0, "external": 0, "arrayBuffers": 0,
            "eventLoopDelayMs": 0, "eventLoopP99Ms": 0, "activeHandles": 0,
            "uptime": time.monotonic() - self.started_at, "pid": os.getpid(),
            "timestamp": int(time.time() * 1000), "instanceId": "0", "instanceType": "api"}]})
