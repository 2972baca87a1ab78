// fleetrun/controller_load: what the controller refuses to load for a
// host before anything is sent (the host's loopback, another address
// without allow_remote), and that other lines of a host's output are not
// answered. fleet.box_remote runs the whole exchange on a real sshd host.
#include "fleetrun/controller_load.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <atomic>

namespace {

namespace json = boost::json;
using stand::fleetrun::answer_controller_load;
using stand::fleetrun::kControllerLoadRequest;

stand::fleet::SshTarget box() {
    stand::fleet::SshTarget t;
    t.name = "box";
    t.user = "root";
    t.address = "10.0.0.5";
    return t;
}

std::string problem_of(const std::string& url, bool allow_remote) {
    const std::atomic<bool> interrupted{false};
    const json::object request{{"options", json::array{"--duration", "1s"}}, {"urls", json::array{url}}, {"rate", 0},
                               {"allow_remote", allow_remote}};
    // /bin/false: a load that did run would say "printed no result".
    const auto answer = answer_controller_load(std::string(kControllerLoadRequest) + json::serialize(request), box(),
                                               interrupted, "/bin/false");
    REQUIRE(answer);
    const json::value v = json::parse(*answer);
    return std::string(v.as_object().at("problem").as_string());
}

}  // namespace

TEST_CASE("controller load: the host's loopback and foreign addresses are refused before anything runs") {
    for (const char* url : {"http://127.0.0.1:8080/", "http://localhost:80/", "http://[::1]:80/"}) {
        CAPTURE(url);
        const std::string p = problem_of(url, true);
        CHECK(p.find("is host box's own loopback, which the controller cannot reach") != std::string::npos);
        CHECK(p.find("listen on the host's address (10.0.0.5") != std::string::npos);
    }
    CHECK(problem_of("http://10.0.0.9:80/", false) ==
          "the load target http://10.0.0.9:80/ is not host box's address (10.0.0.5) and the scenario's allow_remote is not set");
    // The host's own address, or another where the scenario allows it: the load runs (here /bin/false).
    CHECK(problem_of("http://10.0.0.5:80/", false).starts_with("the controller's stand load printed no result (exit 1)"));
    CHECK(problem_of("http://10.0.0.9:80/", true).starts_with("the controller's stand load printed no result (exit 1)"));
}

TEST_CASE("controller load: only a request line is answered, a broken one says why") {
    const std::atomic<bool> interrupted{false};
    CHECK_FALSE(answer_controller_load("step load: 3 s", box(), interrupted, "/bin/false"));
    const auto broken = answer_controller_load(std::string(kControllerLoadRequest) + "{\"urls\": 3}", box(), interrupted, "/bin/false");
    REQUIRE(broken);
    CHECK(json::parse(*broken).as_object().at("problem").as_string().starts_with("the controller could not run the load: "));
}
