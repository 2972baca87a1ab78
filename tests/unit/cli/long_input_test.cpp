// User text of 100,000 characters and numbers beyond a double reach no
// std::regex and no std::stod (issue 52, items 7 and 9): the gate parser,
// a plugin schema's pattern, a readiness "tcp" and a subscription's links,
// each read by hand or bounded, each answering with a message.
#include "host/http/http_service.hpp"
#include "loader/schema_check.hpp"
#include "report/compare_gates.hpp"
#include "target/readiness_poll.hpp"
#include "target/subscription_links.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <atomic>
#include <string>

namespace {

namespace json = boost::json;
const std::string kLong(100000, 'a');

std::string gate_error(const std::string& text) {
    try {
        stand::report::parse_gate(text);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("long input: a gate is read by hand, as the pattern it always was") {
    using stand::report::parse_gate;
    const auto g = parse_gate(kLong + " > +5%");
    CHECK(g.pattern == kLong);
    CHECK((g.higher && g.relative && g.tolerance == doctest::Approx(0.05)));
    const auto spaced = parse_gate(" \t*.p95_ms\t>\t+5 %  ");
    CHECK((spaced.pattern == "*.p95_ms" && spaced.relative && spaced.tolerance == doctest::Approx(0.05)));
    CHECK(gate_error("x > + 5%").find("expected METRIC > +N%") != std::string::npos);
    const auto abs = parse_gate("  a<b>+20 ");
    CHECK((abs.pattern == "a<b" && abs.higher && !abs.relative && abs.tolerance == 20));
    const auto fall = parse_gate("x<-2.5%");
    CHECK((fall.pattern == "x" && !fall.higher && fall.tolerance == doctest::Approx(0.025)));
    CHECK(parse_gate("x > 5").tolerance == 5);
    for (const char* bad : {"x >= 5%", "x > +5.%", "x > +.5", "x y > 5", "> 5", "x > 5%%", "x > 5 % y", "x", "x > +-5", ""})
        CHECK_MESSAGE(gate_error(bad).find("expected METRIC > +N%") != std::string::npos, bad);
    CHECK(gate_error(kLong + " >= 5%").find("expected METRIC > +N%") != std::string::npos);
}

TEST_CASE("long input: a gate's number beyond a double is named, not an internal error") {
    const std::string nines(400, '9');
    CHECK(gate_error("m > +" + nines + "%") ==
          "--fail-if 'm > +" + nines + "%': the change " + nines + " is out of a double's range (about 1e-308 to 1.8e308)");
    CHECK(gate_error("m < -0." + std::string(400, '0') + "1").find("is out of a double's range") != std::string::npos);
    CHECK(stand::report::parse_gate("m > +" + std::string(300, '9')).tolerance > 1e299);
}

TEST_CASE("long input: a pattern is checked on at most 4096 characters, a longer value named by its length") {
    const json::value schema = json::parse(R"({"type": "object", "properties": {"dir": {"type": "string", "pattern": "^.+$"}}})");
    const auto problems = stand::loader::schema_problems(json::object{{"dir", "/var/tmp/" + kLong}}, schema);
    CHECK(problems == std::vector<std::string>{
                          "dir: expected text matching \"^.+$\" of at most 4096 characters, got 100009 characters"});
    CHECK(stand::loader::schema_problems(json::object{{"dir", std::string(4096, 'a')}}, schema).empty());
    const json::value words = json::parse(R"({"properties": {"w": {"enum": ["a", "b"]}}})");
    CHECK(stand::loader::schema_problems(json::object{{"w", kLong}}, words) ==
          std::vector<std::string>{"w: expected one of [\"a\",\"b\"], got 100000 characters"});
}

TEST_CASE("long input: a readiness tcp of 100,000 characters is refused as not host:port") {
    stand::host::HttpService http(stand::host::HttpPolicy{});
    const std::atomic<bool> never{false};
    auto refused = [&](const std::string& tcp) {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            stand::target::poll_until_ready(http, {{"url", "http://127.0.0.1:1/"}, {"also", json::array{json::object{{"tcp", tcp}}}}},
                                            t0, std::chrono::milliseconds(20), std::chrono::milliseconds(100),
                                            t0 + std::chrono::milliseconds(100), never);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        } catch (const std::exception& e) {
            return std::string("other: ") + e.what();
        }
        return std::string("accepted");
    };
    CHECK(refused(kLong).starts_with("readiness.also[0].tcp: expected \"host:port\", got \"aaaa"));
    CHECK(refused(kLong + ":").starts_with("readiness.also[0].tcp: expected \"host:port\""));
    CHECK(refused("[" + kLong + "]:80").starts_with("readiness.also[0].tcp: expected \"host:port\""));
    for (const char* bad : {"a b:80", "a/b:80", "a:b:80", "[]:80", "[::1]:123456", "h:", ":80", "[g::1]:80"})
        CHECK_MESSAGE(refused(bad).starts_with("readiness.also[0].tcp: expected \"host:port\""), bad);
}

TEST_CASE("long input: a subscription link of 100,000 characters is read, a blank in one refused") {
    const auto links = stand::target::parse_subscription_body("vless://" + kLong + "\nssh://" + kLong + "\n");
    CHECK(links.problem.empty());
    REQUIRE(links.links.size() == 1);
    CHECK(links.links[0].size() == 100008);
    CHECK(links.unchecked.at("ssh") == 1);
    CHECK(stand::target::parse_subscription_body("vless://a b").problem == "not a link: 'vless://a b'");
    CHECK(stand::target::parse_subscription_body("Vless://ab").problem == "not a link: 'Vless://ab'");
    CHECK(stand::target::parse_subscription_body("v_x://ab").problem == "not a link: 'v_x://ab'");
    CHECK(stand::target::parse_subscription_body("vless://").problem == "not a link: 'vless://'");
    CHECK(stand::target::parse_subscription_body("a+b.c-d://x\nvless://u@h:1").unchecked.at("a+b.c-d") == 1);
}
