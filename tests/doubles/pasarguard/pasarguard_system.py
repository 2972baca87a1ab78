"""The PasarGuard double's system statistics, what the dashboard's statistics
page polls every 2 s (app/routers/system.py, app/operation/system.py and
app/models/system.py at v5.2.1):

  * GET /api/system/resources -> SystemResourceStats: version, uptime_seconds,
    mem_total, mem_used (total - free - cached), disk_total, disk_used,
    cpu_cores, cpu_usage (percent since the last call, as psutil's is).
  * GET /api/system/users -> SystemUsersStats: the users counted by status,
    online_users (online in the last 2 minutes: the double has no core, 0),
    incoming_bandwidth and outgoing_bandwidth (the system's uplink and
    downlink; here the users' used_traffic as downlink).
"""

import os
import time

from common.host_stats import cpu_times, meminfo
from common.panel_double import json_response

VERSION = "5.2.1"


class SystemMixin:
    def setup_system(self):
        self.started_at = time.monotonic()
        self.last_cpu = cpu_times()
        self.route("GET", r"/api/system/resources", self.h_system_resources, name="system_resources",
                   admin=True)
        self.route("GET", r"/api/system/users", self.h_system_users, name="system_users", admin=True)

    def h_system_resources(self, req):
        _, e = self._auth(req)
        if e:
            return e
        mem = meminfo()
        disk = os.statvfs("/")
        total, idle = cpu_times()
        dt, di = total - self.last_cpu[0], idle - self.last_cpu[1]
        self.last_cpu = (total, idle)
        return json_response({
            "version": VERSION, "uptime_seconds": int(time.monotonic() - self.started_at),
            "mem_total": mem["MemTotal"], "mem_used": mem["MemTotal"] - mem["MemFree"] - mem.get("Cached", 0),
            "disk_total": disk.f_blocks * disk.f_frsize,
            "disk_used": (disk.f_blocks - disk.f_bfree) * disk.f_frsize,
            "cpu_cores": os.cpu_count(), "cpu_usage": round(100.0 * (dt - di) / dt, 1) if dt > 0 else 0.0})

    def h_system_users(self, req):
        _, e = self._auth(req)
        if e:
            return e
        users = self.state["users"]
        count = {s: sum(1 for u in users if u["status"] == s)
                 for s in ("active", "disabled", "expired", "limited", "on_hold")}
        return json_response({
            "total_user": len(users), "online_users": 0, "active_users": count["active"],
            "disabled_users": count["disabled"], "expired_users": count["expired"],
            "limited_users": count["limited"], "on_hold_users": count["on_hold"],
            "incoming_bandwidth": 0,
            "outgoing_bandwidth": sum(u.get("used_traffic") or 0 for u in users)})
