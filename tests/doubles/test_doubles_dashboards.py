"""What the doubles answer to the requests their panels' admin UIs poll while
a page is open (the adapters' dashboard_requests): 3x-ui v3.6.0's server
status and clients page (internal/web/controller/server.go, client.go;
internal/web/service/client_paging.go), PasarGuard v5.2.1's statistics page
(app/routers/system.py, app/models/system.py). Signed in, as a browser is;
refused without a session."""

import os
import shutil
import sys
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


if __name__ == "__main__":
    unittest.main()
