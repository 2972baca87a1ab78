"""What the doubles answer to the requests their panels' admin UIs poll while
a page is open (the adapters' dashboard_requests): 3x-ui v3.6.0's server
status and clients page (internal/web/controller/server.go, client.go;
internal/web/service/client_paging.go), PasarGuard v5.2.1's statistics page
(app/routers/system.py, app/models/system.py), Remnawave 3.3.2's home page
(src/modules/system/system.service.ts; contract commands/system/), Mistgate's
Overview at 695c839 (internal/panel/fleet/admin_fleet.go, admin_node.go;
proto/mistgate/admin/v1/). Signed in, as a browser is; refused without a
session."""

import os
import shutil
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_doubles as xui_tests  # noqa: E402
import test_doubles_remna_pasar as pasar_tests  # noqa: E402


class XuiDashboardTest(unittest.TestCase):
    setUp, tearDown = xui_tests.XuiTest.setUp, xui_tests.XuiTest.tearDown
    start, login, reality_inbound = xui_tests.XuiTest.start, xui_tests.XuiTest.login, xui_tests.XuiTest.reality_inbound

    def test_the_pages_polls_signed_in(self):
        d = self.start()
        c, _ = self.login(d)
        self.reality_inbound(c, "/", False)
        for i in range(30):
            s, r = c.json("POST", "/panel/api/clients/add", {
                "client": {"email": "u%d" % i, "id": "00000000-0000-4000-8000-%012d" % i, "enable": True,
                           "subId": "s%d" % i}, "inboundIds": [1]})
            self.assertTrue(r["success"], r)
        s, r = c.json("POST", "/panel/api/clients/bulkDisable", {"emails": ["u7"]})
        self.assertTrue(r["success"], r)
        s, r = c.json("GET", "/panel/api/server/status")
        self.assertEqual((s, r["success"], r["obj"]["xray"]["state"]), (200, True, "running"))
        s, r = c.json("GET", "/panel/api/clients/list/paged?page=2&pageSize=25")
        page = r["obj"]
        self.assertEqual((s, r["success"]), (200, True))
        self.assertEqual((page["total"], page["filtered"], page["page"], page["pageSize"]), (30, 30, 2, 25))
        self.assertEqual([x["email"] for x in page["items"]], ["u%d" % i for i in range(25, 30)])
        self.assertEqual((page["summary"]["total"], page["summary"]["active"], page["summary"]["deactive"]),
                         (30, 29, ["u7"]))
        anonymous = xui_tests.Client(d.port)
        self.assertEqual(anonymous.req("GET", "/panel/api/clients/list/paged")[0], 404)
        self.assertEqual(anonymous.req("GET", "/panel/api/server/status",
                                       headers={"X-Requested-With": "XMLHttpRequest"})[0], 401)


class PasarGuardDashboardTest(unittest.TestCase):
    setUp = pasar_tests.PasarGuardDoubleTest.setUp
    api = pasar_tests.PasarGuardDoubleTest.api
    owner_token = pasar_tests.PasarGuardDoubleTest.owner_token
    temp_key = pasar_tests.PasarGuardDoubleTest.temp_key

    def tearDown(self):
        self.d.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_the_statistics_page_polls(self):
        tok = self.owner_token()
        gid = self.api("POST", "/api/group", tok, {"name": "everyone", "inbound_tags": ["Shadowsocks TCP"]})[3]["id"]
        for i in range(3):
            self.assertEqual(self.api("POST", "/api/user", tok, {"username": "user%d" % i, "group_ids": [gid],
                                                                  "data_limit": 0})[0], 201)
        st, _, _, res = self.api("GET", "/api/system/resources", tok)
        self.assertEqual(st, 200)
        self.assertEqual(set(res), {"version", "uptime_seconds", "mem_total", "mem_used", "disk_total", "disk_used",
                                    "cpu_cores", "cpu_usage"})
        self.assertEqual(res["cpu_cores"], os.cpu_count())
        self.assertLess(res["mem_used"], res["mem_total"])
        st, _, _, users = self.api("GET", "/api/system/users", tok)
        self.assertEqual(st, 200)
        self.assertEqual(users, {"total_user": 3, "online_users": 0, "active_users": 3, "disabled_users": 0,
                                 "expired_users": 0, "limited_users": 0, "on_hold_users": 0,
                                 "incoming_bandwidth": 0, "outgoing_bandwidth": 0})
        self.assertEqual(self.api("GET", "/api/system/users")[0], 401)


class RemnawaveDashboardTest(unittest.TestCase):
    setUp, tearDown = pasar_tests.RemnawaveDoubleTest.setUp, pasar_tests.RemnawaveDoubleTest.tearDown
    api = pasar_tests.RemnawaveDoubleTest.api
    RUNTIME_KEYS = {"rss", "heapUsed", "heapTotal", "external", "arrayBuffers", "eventLoopDelayMs", "eventLoopP99Ms",
                    "activeHandles", "uptime", "pid", "timestamp", "instanceId", "instanceType"}

    def test_the_home_pages_polls(self):
        password = "Bn-0123456789abcdef0123Aa1"
        jwt = self.api("POST", "/api/auth/register", body={"username": "benchadmin", "password": password})[3][
            "response"]["accessToken"]
        squad = self.api("GET", "/api/internal-squads", jwt, browser=True)[3]["response"]["internalSquads"][0]
        ids = [self.api("POST", "/api/users", jwt, {"username": "user%d" % i, "expireAt": "2099-01-01T00:00:00.000Z",
                                                    "activeInternalSquads": [squad["uuid"]]}, browser=True)[3][
                   "response"]["id"] for i in range(3)]
        self.assertEqual(self.api("POST", "/api/users/%d/actions/disable" % ids[0], jwt, browser=True)[0], 200)
        st, _, _, js = self.api("GET", "/api/system/stats?tz=UTC", jwt, browser=True)
        stats = js["response"]
        self.assertEqual(st, 200)
        self.assertEqual(stats["users"], {"statusCounts": {"ACTIVE": 2, "DISABLED": 1, "LIMITED": 0, "EXPIRED": 0},
                                          "totalUsers": 3})
        self.assertEqual(stats["onlineStats"], {"lastDay": 0, "lastWeek": 0, "neverOnline": 3, "onlineNow": 0})
        self.assertEqual(stats["nodes"], {"totalOnline": 0, "totalBytesLifetime": "0"})
        self.assertEqual(stats["cpu"], {"cores": os.cpu_count()})
        mem = stats["memory"]
        self.assertEqual(mem["used"], mem["total"] - mem["free"])
        self.assertGreater(mem["free"], 0)
        self.assertLess(abs(stats["timestamp"] / 1000 - time.time()), 60)
        st, _, _, js = self.api("GET", "/api/system/stats/bandwidth?tz=UTC", jwt, browser=True)
        self.assertEqual(st, 200)
        self.assertEqual(set(js["response"]), {"bandwidthLastTwoDays", "bandwidthLastSevenDays", "bandwidthLast30Days",
                                               "bandwidthCalendarMonth", "bandwidthCurrentYear"})
        for period in js["response"].values():
            self.assertEqual(period, {"current": "0", "previous": "0", "difference": "0"})
        st, _, _, js = self.api("GET", "/api/system/health", jwt, browser=True)
        [metric] = js["response"]["runtimeMetrics"]
        self.assertEqual((st, set(metric)), (200, self.RUNTIME_KEYS))
        self.assertEqual((metric["pid"], metric["instanceType"], metric["instanceId"]), (self.d.proc.pid, "api", "0"))
        self.assertGreater(metric["rss"], 0)
        for path in ("/api/system/stats", "/api/system/stats/bandwidth", "/api/system/health"):
            self.assertEqual(self.api("GET", path)[0], 401)
            self.assertEqual(self.api("GET", path, jwt)[0], 403)  # the admin's JWT needs the browser's header


class MistgateDashboardTest(unittest.TestCase):
    STEP = xui_tests.MistgateTest.STEP
    setUp, tearDown = xui_tests.MistgateTest.setUp, xui_tests.MistgateTest.tearDown
    start, rpc, owner = xui_tests.MistgateTest.start, xui_tests.MistgateTest.rpc, xui_tests.MistgateTest.owner
    begin_setup = xui_tests.MistgateTest.begin_setup
    bootstrap, node, login = xui_tests.MistgateTest.bootstrap, xui_tests.MistgateTest.node, xui_tests.MistgateTest.login
    enroll_and_run = xui_tests.MistgateTest.enroll_and_run

    def online_nodes(self, c):
        for _ in range(100):
            s, r = self.rpc(c, "NodeService/ListNodes", {})
            if r["nodes"][0]["status"] == "NODE_STATUS_ONLINE":
                return s, r
            time.sleep(0.1)
        self.fail("the node never came online: %r" % r)

    def test_the_overviews_polls(self):
        d = self.start()
        c, gid = self.bootstrap(d)
        for i in range(3):
            self.assertEqual(self.rpc(c, "UserService/CreateUser", {"name": "user%d" % i, "groupId": gid})[0], 200)
        self.enroll_and_run()
        browser = self.login(d.port)  # a sign-in of its own
        s, r = self.online_nodes(browser)
        self.assertEqual(s, 200)
        self.assertEqual((r["nodes"][0]["id"], r["nodes"][0]["protocols"]), (self.node_id, ["hysteria2"]))
        self.assertLess(abs(int(r["nodes"][0]["lastSeenUnix"]) - time.time()), 30)
        s, r = self.rpc(browser, "FleetService/Overview", {"range": "OVERVIEW_RANGE_24H", "eventLimit": 6})
        self.assertEqual((s, r["nodesTotal"], len(r["traffic"]), len(r["online"])), (200, 1, 24, 24))
        hour = int(time.time()) // 3600 * 3600
        self.assertEqual([int(p["startUnix"]) for p in r["traffic"]], [hour - (23 - i) * 3600 for i in range(24)])
        self.assertEqual(r["nodes"], [{"id": self.node_id, "name": "bench1", "countryCode": "DE",
                                       "status": "NODE_STATUS_ONLINE", "sparkBytes": ["0"] * 24}])
        self.assertNotIn("nodesProblem", r)
        s, r = self.rpc(browser, "FleetService/Overview", {"range": "OVERVIEW_RANGE_7D"})
        self.assertEqual((s, len(r["traffic"])), (200, 168))
        s, r = self.rpc(browser, "UserService/ListUsers", {"pageSize": 1})
        self.assertEqual((s, r["counts"], len(r["users"])), (200, {"all": 3}, 1))
        s, r = self.rpc(browser, "ProfileService/ListProfiles", {})
        [profile] = r["profiles"]
        self.assertEqual(s, 200)
        self.assertEqual({k: v for k, v in profile.items() if k != "id"},
                         {"name": "main", "protocol": "hysteria2", "summary": "UDP 443 · self_signed", "nodeCount": 1,
                          "userCount": 3, "version": 1})
        s, r = self.rpc(browser, "ApprovalService/ListApprovals", {"awaitingOnly": True})
        self.assertEqual((s, set(r)), (200, {"nowUnix"}))
        anonymous = xui_tests.Client(d.port)
        for method, body in (("FleetService/Overview", {}), ("NodeService/ListNodes", {}),
                             ("ProfileService/ListProfiles", {}), ("ApprovalService/ListApprovals", {})):
            s, r = self.rpc(anonymous, method, body)
            self.assertEqual((s, r["code"]), (401, "unauthenticated"), method)


if __name__ == "__main__":
    unittest.main()
