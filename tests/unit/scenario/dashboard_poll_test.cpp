// What a load step's open dashboards make of panel.dashboard_requests'
// answer (scenario/steps/dashboard_poll.cpp): one open-model load per
// request at dashboards / period, one connection per dashboard, the
// session's headers secret; an answer that is not one is refused naming
// what is wrong. The polling itself runs on the 3x-ui and PasarGuard
// doubles (scenario.one_server_doubles) and the real x-ui
// (real.3x-ui.one_server).
#include "scenario/steps/dashboard_poll.hpp"
#include "text/secrets.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <string>

using namespace stand::scenario;
namespace json = boost::json;

namespace {

DashboardPlan plan(unsigned dashboards = 2) { return {dashboards, std::chrono::seconds(5), false, {}}; }

std::string refusal(const std::string& answer) {
    try {
        dashboard_loads(json::parse(answer), plan());
    } catch (const StepFailure& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("dashboard poll: one open-model load per request at dashboards / period, one connection per dashboard") {
    const auto loads = dashboard_loads(json::parse(R"({"requests": [
        {"page": "overview", "name": "server_status", "every_s": 2, "method": "GET",
         "url": "http://127.0.0.1:2053/panel/api/server/status", "headers": {"Cookie": "3x-ui=session-value-1234567890"}},
        {"page": "clients", "name": "clients_page", "every_s": 5, "method": "POST",
         "url": "http://localhost:2053/panel/api/clients/list/paged?page=1", "body": "{}"}]})"),
                                       plan(4));
    REQUIRE(loads.size() == 2);
    CHECK(loads[0].page == "overview");
    CHECK(loads[0].name == "server_status");
    CHECK(loads[0].spec.model == stand::load::Model::open);
    CHECK(loads[0].spec.rate == doctest::Approx(2.0));
    CHECK(loads[0].spec.connections == 4);
    CHECK(loads[0].spec.duration == std::chrono::seconds(5));
    const auto link = loads[0].spec.links.front();
    CHECK(link.method == "GET");
    REQUIRE(link.headers.size() == 1);
    CHECK(link.headers[0].second == "3x-ui=session-value-1234567890");
    CHECK(stand::text::secrets().scrub("Cookie: 3x-ui=session-value-1234567890") == "Cookie: <redacted>");
    CHECK(loads[1].spec.rate == doctest::Approx(0.8));
    CHECK(loads[1].spec.links.front().body == "{}");
}

TEST_CASE("dashboard poll: an answer that is not one is refused, naming what is wrong") {
    CHECK(refusal(R"({})").find("panel.dashboard_requests returned no {\"requests\"") == 0);
    CHECK(refusal(R"({"requests": []})").find("no {\"requests\": [1 to 32 requests]}") != std::string::npos);
    const std::string good = R"("page": "p", "method": "GET", "url": "http://127.0.0.1:1/s")";
    CHECK(refusal(R"({"requests": [{"name": "a", )" + good + "}]}").find("request 'a' without every_s in (0, 3600]") !=
          std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "a", "every_s": 0, )" + good + "}]}").find("without every_s") !=
          std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "A b", "every_s": 1, )" + good + "}]}").find("request name 'A b'") !=
          std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "a", "every_s": 1, )" + good + R"(}, {"name": "a", "every_s": 2, )" + good +
                  "}]}")
              .find("the request name 'a' twice") != std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "a", "every_s": 1, "page": "p", "method": "GET", "url": "http://10.0.0.1/s"}]})")
              .find("request 0 to 10.0.0.1, not a loopback address") != std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "a", "every_s": 1, "page": "p", "method": "GET", "url": "ftp://x"}]})")
              .find("request 0 with a URL that is not one") != std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "a", "every_s": 1, "page": "p", "url": "http://127.0.0.1:1/s"}]})")
              .find("request 0 without a \"method\" string") != std::string::npos);
    CHECK(refusal(R"({"requests": [{"name": "a", "every_s": 1, "headers": {"X": 1}, )" + good + "}]}")
              .find("a header that is not a string") != std::string::npos);
}
