// load: HTTP load from this machine at the plugin's endpoint (proxy.endpoint,
// else the readiness URL's base), at the users' subscription links, counted
// as the server saw it; its metrics, loads.<step>, the findings of a bad
// answer mix and the backend's side through a proxy. Every server here is
// in-process on 127.0.0.1, port 0.
#include "endpoint_fixtures.hpp"
#include "step_samples.hpp"

#include "../http_test_server.hpp"
#include "../load_test_support.hpp"
#include "backend/backend_server.hpp"
#include "target/backend.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace stand::test;
namespace json = boost::json;

namespace {

// A panel whose create_user gives each user a link to `server` at
// /sub/<name>, with a header of its own.
void panel_links_to(StepBench& b, const HttpTestServer& server) {
    const std::string base = server.url("/sub/");
    b.port.answer(PortCall::create_user, [base](const json::object& args) {
        const std::string name(args.at("name").as_string());
        return reply_ok(json::object{
            {"id", "id-" + name},
            {"subscription", {{"method", "GET"}, {"url", base + name}, {"headers", {{"X-User", name}}}}}});
    });
}

std::shared_ptr<HttpTestServer> answering(unsigned status) {
    return std::make_shared<HttpTestServer>([status](const TestRequest&) { return reply(status, "ok"); });
}

std::uint64_t count_at(const json::object& o, std::initializer_list<std::string_view> path) {
    const json::value* v = nullptr;
    const json::object* at = &o;
    for (auto key : path) {
        v = &at->at(key);
        if (v->is_object()) at = &v->as_object();
    }
    return v->to_number<std::uint64_t>();
}

// The findings about the target: a closed model's generator runs flat out, so on a busy machine it may be
// found saturated besides (generator-saturated), which says nothing of the server.
std::vector<std::string> target_findings(const StepBench& b) {
    std::vector<std::string> ids = b.finding_ids();
    ids.erase(std::remove(ids.begin(), ids.end(), "generator-saturated"), ids.end());
    return ids;
}

std::string finding_message(const StepBench& b, const std::string& id) {
    for (const auto& f : b.ctx.record.findings)
        if (f.at("id").as_string() == id) return std::string(f.at("message").as_string());
    return {};
}

}  // namespace

// The users' links, loaded for 0.3 s: the port has calls to interrupt (the panel's), all of an interface
// the kind declares for them. (A load of the endpoint asks proxy.endpoint first, though the kind
// declares only stand.lifecycle/1 for it: the interface check of interrupt_test.cpp would refuse it.)
STAND_STEP_SAMPLE({"load",
                   R"({"step": "create_users", "count": 2},
                      {"step": "load", "links": "subscriptions", "duration_s": 0.3, "connections": 2})",
                   "", [](StepBench& b) {
                       auto server = answering(200);
                       panel_links_to(b, *server);
                       b.keep.push_back(server);
                   }});

TEST_CASE("load step: the endpoint's requests, counted as the server saw them") {
    HttpTestServer server([](const TestRequest&) { return reply(200, "ok"); });
    StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 2, "path": "/x",
                    "headers": ["X-Stand: t"]})");
    serve_endpoint(b, server.port());
    REQUIRE(b.failure_of_all() == "");
    // The endpoint came from proxy.endpoint, asked once; no readiness needed.
    CHECK(b.port.count(PortCall::endpoint) == 1);
    CHECK(b.port.count(PortCall::readiness) == 0);

    const auto seen = server.requests();
    const json::object& load = b.load_of("l");
    const std::uint64_t completed = count_at(load, {"requests", "completed"});
    CHECK(completed > 10);
    CHECK(completed == seen.size());
    CHECK(count_at(load, {"requests", "errors"}) == 0);
    CHECK(count_at(load, {"status_counts", "200"}) == completed);
    CHECK(load.at("model").as_string() == "closed");
    CHECK(count_at(load, {"connections_opened"}) == 2);  // kept alive
    CHECK(server.connections() == 2);
    CHECK(std::all_of(seen.begin(), seen.end(), [](const TestRequest& r) {
        return r.target() == "/x" && r["X-Stand"] == "t";
    }));

    const double elapsed = load.at("elapsed_s").to_number<double>();
    REQUIRE(elapsed > 0.25);
    CHECK(*b.metric("l.rps") == doctest::Approx(static_cast<double>(completed) / elapsed).epsilon(0.02));
    CHECK(b.metric("l.ok_rps") == b.metric("l.rps"));
    CHECK(b.metric("l.error_pct") == 0);
    CHECK(*b.metric("l.p50_ms") > 0);
    CHECK(*b.metric("l.p50_ms") <= *b.metric("l.p90_ms"));
    CHECK(*b.metric("l.p90_ms") <= *b.metric("l.p95_ms"));
    CHECK(*b.metric("l.p95_ms") <= *b.metric("l.p99_ms"));
    CHECK(*b.metric("l.ok_p50_ms") == *b.metric("l.p50_ms"));  // every answer was a 2xx
    CHECK(*b.metric("l.conns_per_req") == doctest::Approx(2.0 / static_cast<double>(completed)));
    CHECK(*b.metric("l.client_cpu_pct") >= 0);
    CHECK(*b.metric("l.client_cpu_us_per_req") > 0);
    // The closed model has no late sends; without a sampler, no box metric; without a backend, no backend side.
    CHECK_FALSE(b.metric("l.late_pct"));
    CHECK_FALSE(b.metric("l.box_cpu_pct"));
    CHECK_FALSE(b.metric("l.backend_conns"));
    CHECK(b.ctx.record.windows.empty());
    CHECK(target_findings(b).empty());
    CHECK(b.ctx.record.tls_sessions.empty());

    // The latency per second as an HdrHistogram log in the run directory, named in the record.
    const std::filesystem::path log = b.dir.root() / std::string(load.at("hdr_log").as_string());
    CHECK(std::filesystem::file_size(log) > 0);
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == "l");
}

TEST_CASE("load step: without proxy.endpoint, the readiness URL's base with the step's path") {
    HttpTestServer server([](const TestRequest&) { return reply(204); });
    StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 1, "path": "/api"})");
    b.env.through_proxy = true;  // a proxy: it has an endpoint
    b.port.answer(PortCall::endpoint, [](const json::object&) {
        return reply_error(STAND_E_UNSUPPORTED, "not a proxy");
    });
    b.port.answer(PortCall::readiness, json::value(json::object{{"url", server.url("/health?x=1")}}));
    REQUIRE(b.failure_of_all() == "");
    const auto seen = server.requests();
    REQUIRE_FALSE(seen.empty());
    CHECK(std::all_of(seen.begin(), seen.end(), [](const TestRequest& r) { return r.target() == "/api"; }));
    CHECK(count_at(b.load_of("l"), {"status_counts", "204"}) == seen.size());
    CHECK(b.metric("l.error_pct") == 0);
}

TEST_CASE("load step: answers of 500 and closed connections are errors, not throughput") {
    SUBCASE("500") {
        auto server = answering(500);
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 2})");
        serve_endpoint(b, server->port());
        REQUIRE(b.failure_of_all() == "");
        const std::uint64_t seen = server->requests().size();
        REQUIRE(seen > 0);
        CHECK(count_at(b.load_of("l"), {"status_counts", "500"}) == seen);
        CHECK(count_at(b.load_of("l"), {"requests", "completed"}) == seen);
        CHECK(b.metric("l.error_pct") == 100);
        CHECK(b.metric("l.ok_rps") == 0);
        CHECK(*b.metric("l.rps") > 0);
        CHECK(b.metric("l.p50_ms"));            // the 500s were answers
        CHECK_FALSE(b.metric("l.ok_p50_ms"));   // but none a 2xx
        CHECK(target_findings(b) == std::vector<std::string>{"mostly-non-2xx"});
        CHECK(finding_message(b, "mostly-non-2xx") == "100.0 % of responses were not 2xx");
    }
    SUBCASE("429") {
        auto server = answering(429);
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 1})");
        serve_endpoint(b, server->port());
        REQUIRE(b.failure_of_all() == "");
        CHECK(b.metric("l.error_pct") == 100);
        CHECK(target_findings(b) == std::vector<std::string>{"mostly-429"});
        CHECK(finding_message(b, "mostly-429") ==
              "100.0 % of responses were 429: this measures a rate limiter, not the service");
    }
    SUBCASE("closed without an answer") {
        HttpTestServer server([](const TestRequest&) {
            TestReply r;
            r.action = TestReply::Action::close;
            return r;
        });
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 1})");
        serve_endpoint(b, server.port());
        REQUIRE(b.failure_of_all() == "");
        const json::object& load = b.load_of("l");
        CHECK(count_at(load, {"requests", "completed"}) == 0);
        const std::uint64_t errors = count_at(load, {"requests", "errors"});
        CHECK(errors > 0);
        CHECK(count_at(load, {"errors", "closed"}) == errors);
        CHECK(server.requests().size() >= errors);  // each was received, then dropped
        CHECK(b.metric("l.error_pct") == 100);
        CHECK(b.metric("l.rps") == 0);
        CHECK_FALSE(b.metric("l.p50_ms"));
        CHECK_FALSE(b.metric("l.client_cpu_us_per_req"));
    }
}

TEST_CASE("load step: a dead endpoint is 100 % connection errors, a failed port call ends the repetition") {
    SUBCASE("nobody listens") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 1})");
        serve_endpoint(b, free_port());
        REQUIRE(b.failure_of_all() == "");
        const json::object& load = b.load_of("l");
        const std::uint64_t sent = count_at(load, {"requests", "sent"});
        CHECK(sent > 0);
        CHECK(count_at(load, {"errors", "connect_refused"}) == sent);
        CHECK(count_at(load, {"requests", "completed"}) == 0);
        CHECK(b.metric("l.error_pct") == 100);
        CHECK(b.metric("l.ok_rps") == 0);
    }
    SUBCASE("no endpoint and a dead worker") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint, [](const json::object&) {
            return reply_error(STAND_E_UNSUPPORTED, "not a proxy");
        });
        b.port.answer(PortCall::readiness, [](const json::object&) {
            return reply_failure(stand::isolation::WorkerReply::Failure::kCrashed, "the worker exited with signal 9");
        });
        CHECK(b.failure_of_all() == "lifecycle.readiness: the worker exited with signal 9");
        CHECK(b.ctx.record.loads.empty());
        CHECK(b.ctx.record.metrics.empty());
    }
    SUBCASE("a readiness answer without a URL") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint, [](const json::object&) { return reply_error(STAND_E_UNSUPPORTED, "no"); });
        b.port.answer(PortCall::readiness, json::value(json::object{{"method", "GET"}}));
        CHECK(b.failure_of_all() == R"(lifecycle.readiness: the plugin did not describe a request with a "url")");
    }
    SUBCASE("an endpoint off this machine without allow_remote") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3})");
        serve_endpoint(b, 8080, "http", "192.0.2.1");
        const std::string failure = b.failure_of_all();
        CHECK(failure.starts_with("load: refusing non-local target 'http://192.0.2.1:8080/'"));
        CHECK(b.ctx.record.loads.empty());
    }
}

TEST_CASE("load step: the open model sends the rate, each request on time or counted late") {
    HttpTestServer server([](const TestRequest&) { return reply(200, "ok"); });
    StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "rate": 100, "connections": 4})");
    serve_endpoint(b, server.port());
    REQUIRE(b.failure_of_all() == "");
    const json::object& load = b.load_of("l");
    CHECK(load.at("model").as_string() == "open");
    const std::uint64_t offered = count_at(load, {"requests", "offered"});
    CHECK(offered >= 29);
    CHECK(offered <= 31);
    // A generator starved of CPU (the whole suite on two cores) may leave the last ticks unsent.
    const std::uint64_t sent = count_at(load, {"requests", "sent"});
    CHECK(sent <= offered);
    CHECK(sent + 3 >= offered);
    CHECK(count_at(load, {"requests", "completed"}) == server.requests().size());
    CHECK(server.requests().size() == sent);
    REQUIRE(b.metric("l.late_pct"));
    CHECK(*b.metric("l.late_pct") >= 0);
    CHECK(*b.metric("l.late_pct") <= 100);
    CHECK(*b.metric("l.rps") == doctest::Approx(100).epsilon(0.35));
    CHECK(b.metric("l.error_pct") == 0);
}

TEST_CASE("load step: subscription links are the users' links with their headers, each loaded") {
    HttpTestServer server([](const TestRequest&) { return reply(200, "sub"); });
    StepBench b(R"({"step": "create_users", "count": 2},
                   {"step": "load", "name": "l", "links": "subscriptions", "duration_s": 0.3, "connections": 2,
                    "xff": true, "warmup_once": true})");
    panel_links_to(b, server);
    REQUIRE(b.failure_of_all() == "");
    const auto seen = server.requests();
    // Each user's link with the headers its panel gave, and an X-Forwarded-For of the link's index.
    const auto for_user = [&](const std::string& name, const std::string& xff) {
        return std::count_if(seen.begin(), seen.end(), [&](const TestRequest& r) {
            return r.target() == "/sub/" + name && r["X-User"] == name && r["X-Forwarded-For"] == xff;
        });
    };
    const auto user1 = for_user("user1", "10.0.0.7");
    const auto user2 = for_user("user2", "10.0.1.7");
    CHECK(user1 > 1);
    CHECK(user2 > 1);
    CHECK(static_cast<std::size_t>(user1 + user2) == seen.size());
    const json::object& load = b.load_of("l");
    CHECK(count_at(load, {"links"}) == 2);
    // Every link once before the window (warmup_once), then the measured requests.
    CHECK(count_at(load, {"warmup", "requests"}) == 2);
    CHECK(count_at(load, {"warmup", "completed"}) == 2);
    CHECK(count_at(load, {"requests", "completed"}) + 2 == seen.size());
    const auto& per_link = load.at("requests_per_link").as_array();
    REQUIRE(per_link.size() == 2);
    CHECK(per_link[0].to_number<std::int64_t>() + 1 == user1);
    CHECK(per_link[1].to_number<std::int64_t>() + 1 == user2);
    // The load asked nothing of the plugin: the links are the users'.
    CHECK(b.port.count(PortCall::endpoint) == 0);
    CHECK(b.port.count(PortCall::readiness) == 0);
}

TEST_CASE("load step: the admin churn alongside the load, each call timed") {
    HttpTestServer server([](const TestRequest&) { return reply(200, "ok"); });
    StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.4, "connections": 1, "churn_per_s": 10})");
    serve_endpoint(b, server.port());
    b.port.answer(PortCall::create_user, [](const json::object& args) {
        return reply_ok(json::object{{"id", "id-" + std::string(args.at("name").as_string())}});
    });
    b.port.answer(PortCall::admin_call, [](const json::object&) {
        return reply_error(STAND_E_BAD_RESPONSE, "HTTP 502 from /panel/api/server/status");
    });
    REQUIRE(b.failure_of_all() == "");
    // Ten times a second while the load ran: add churn<i>, delete the one before, one admin call.
    const auto added = b.port.args_of(PortCall::create_user);
    const std::size_t n = added.size();
    CHECK(n >= 3);
    CHECK(n <= 6);
    for (std::size_t i = 0; i < n; ++i) CHECK(added[i].at("name").as_string() == "churn" + std::to_string(i + 1));
    const auto deleted = b.port.args_of(PortCall::delete_user);
    REQUIRE(deleted.size() == n);  // the last one too, after the load
    for (std::size_t i = 0; i < n; ++i) CHECK(deleted[i].at("id").as_string() == "id-churn" + std::to_string(i + 1));
    CHECK(b.port.count(PortCall::admin_call) == n);

    const json::object& churn = b.load_of("l").at("churn").as_object();
    CHECK(churn.at("adds").to_number<std::size_t>() == n);
    CHECK(churn.at("deletes").to_number<std::size_t>() == n);
    CHECK(churn.at("calls").to_number<std::size_t>() == n);
    CHECK(churn.at("error_count").to_number<std::size_t>() == n);  // every admin call failed
    CHECK(churn.at("errors").as_array().at(0).as_string() == "panel.admin_call: HTTP 502 from /panel/api/server/status");
    CHECK(b.metric("l.admin_errors") == static_cast<double>(n));
    CHECK(*b.metric("l.admin_add_p50_ms") <= *b.metric("l.admin_add_max_ms"));
    CHECK(b.metric("l.admin_del_p95_ms"));
    CHECK(b.metric("l.admin_call_max_ms"));
    CHECK(b.metric("l.error_pct") == 0);  // the load itself was fine
}

TEST_CASE("load step: open dashboards poll what the panel's UI polls, measured apart") {
    HttpTestServer server([](const TestRequest&) { return reply(200, "ok"); });
    StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.4, "connections": 1, "dashboards": 2})");
    serve_endpoint(b, server.port());
    b.port.answer(PortCall::dashboard_requests,
                  json::value(json::object{{"requests", json::array{json::object{
                                                            {"page", "overview"},
                                                            {"name", "status"},
                                                            {"method", "GET"},
                                                            {"url", server.url("/panel/status")},
                                                            {"headers", {{"Cookie", "session=s3cr3t"}}},
                                                            {"every_s", 0.1}}}}}));
    REQUIRE(b.failure_of_all() == "");
    CHECK(b.port.count(PortCall::dashboard_requests) == 1);
    const auto seen = server.requests();
    const auto polls = std::count_if(seen.begin(), seen.end(), [](const TestRequest& r) {
        return r.target() == "/panel/status" && r["Cookie"] == "session=s3cr3t";
    });
    // Two dashboards each polling every 0.1 s for 0.4 s: 20 a second, 8 in all.
    const json::object& dashboard = b.load_of("l").at("dashboard").as_object();
    CHECK(dashboard.at("dashboards").to_number<int>() == 2);
    const json::object& status = dashboard.at("requests").as_array().at(0).as_object();
    CHECK(status.at("name").as_string() == "status");
    CHECK(status.at("rate").to_number<double>() == 20);
    CHECK(status.at("offered").to_number<std::int64_t>() == 8);
    CHECK(status.at("completed").to_number<std::int64_t>() == polls);
    CHECK(polls == 8);
    CHECK(b.metric("l.dash_error_pct") == 0);
    CHECK(*b.metric("l.dash_rps") > 0);
    CHECK(*b.metric("l.dash_p50_ms") <= *b.metric("l.dash_max_ms"));
    // The step's own load went to the endpoint, apart from the polls.
    CHECK(count_at(b.load_of("l"), {"requests", "completed"}) + static_cast<std::uint64_t>(polls) == seen.size());

    StepBench refused(R"({"step": "load", "name": "l", "duration_s": 0.4, "dashboards": 1})");
    serve_endpoint(refused, server.port());
    refused.port.answer(PortCall::dashboard_requests, [](const json::object&) {
        return reply_error(STAND_E_UNSUPPORTED, "this panel has no dashboard requests");
    });
    CHECK(refused.failure_of_all() == "dashboards: panel.dashboard_requests: this panel has no dashboard requests");
    CHECK(refused.ctx.record.loads.empty());
}

TEST_CASE("load step: through a proxy, the backend's connections per request say whether it pools") {
    stand::backend::BackendServer server{stand::backend::BackendOptions{}};
    InProcessBackend backend(server);
    SUBCASE("a new backend connection per request: no-backend-reuse") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 2, "keepalive": false})");
        b.env.backend = &backend;
        b.env.through_proxy = true;
        serve_endpoint(b, backend.port());  // no proxy in between: each client connection is a backend one
        REQUIRE(b.failure_of_all() == "");
        const std::uint64_t completed = count_at(b.load_of("l"), {"requests", "completed"});
        REQUIRE(completed > 0);
        CHECK(*b.metric("l.conns_per_req") == doctest::Approx(1));
        CHECK(b.metric("l.backend_conns") == static_cast<double>(count_at(b.load_of("l"), {"connections_opened"})));
        CHECK(*b.metric("l.backend_conns_per_req") == doctest::Approx(1).epsilon(0.02));
        CHECK(*b.metric("l.backend_requests_per_req") == doctest::Approx(1).epsilon(0.02));
        CHECK_FALSE(b.metric("l.backend_cpu_us_per_req"));  // this backend's CPU is not known
        CHECK(target_findings(b) == std::vector<std::string>{"no-backend-reuse"});
        CHECK(finding_message(b, "no-backend-reuse").starts_with("the proxy opened 1.00 backend connections per request ("));
    }
    SUBCASE("the scenario turned the pool off: no finding") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 2, "keepalive": false})");
        b.env.backend = &backend;
        b.env.through_proxy = true;
        b.ctx.state.upstream_keepalive = false;  // as a configure step leaves it
        serve_endpoint(b, backend.port());
        REQUIRE(b.failure_of_all() == "");
        CHECK(*b.metric("l.backend_conns_per_req") == doctest::Approx(1).epsilon(0.02));
        CHECK(target_findings(b).empty());
    }
    SUBCASE("kept-alive connections are reused") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 2})");
        b.env.backend = &backend;
        b.env.through_proxy = true;
        serve_endpoint(b, backend.port());
        REQUIRE(b.failure_of_all() == "");
        CHECK(b.metric("l.backend_conns") == 2);
        CHECK(*b.metric("l.backend_conns_per_req") < 0.5);
        CHECK(target_findings(b).empty());
    }
    SUBCASE("not through a proxy: the backend is not read") {
        StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 1})");
        b.env.backend = &backend;
        // A panel: its readiness request is the endpoint, and proxy.endpoint is not asked.
        b.port.answer(PortCall::readiness,
                      json::value(json::object{{"url", "http://127.0.0.1:" + std::to_string(backend.port()) + "/"}}));
        REQUIRE(b.failure_of_all() == "");
        CHECK_FALSE(b.metric("l.backend_conns"));
        CHECK(b.port.count(PortCall::endpoint) == 0);
    }
}

TEST_CASE("load step: an https endpoint is trusted through the configure step's CA, its TLS session recorded") {
    const auto cert = TestCertificate::make("stand-test", "IP:127.0.0.1");
    const auto tls = cert.server_context();
    HttpTestServer server([](const TestRequest&) { return reply(200, "ok"); }, tls.get());
    StepBench b(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 2})");
    const auto ca = b.temp.path() / "ca.pem";
    std::ofstream(ca) << cert.cert_pem;
    b.ctx.state.proxy_tls = {"p256", ca};  // what a configure step with "tls": "p256" leaves
    serve_endpoint(b, server.port(), "https");
    REQUIRE(b.failure_of_all() == "");
    const json::object& load = b.load_of("l");
    CHECK(count_at(load, {"requests", "completed"}) == server.requests().size());
    CHECK(b.metric("l.error_pct") == 0);
    const std::uint64_t handshakes = count_at(load, {"tls_handshakes", "total"});
    CHECK(handshakes >= 2);
    CHECK(b.metric("l.handshakes") == static_cast<double>(handshakes));
    CHECK(*b.metric("l.client_us_per_handshake") > 0);
    REQUIRE(b.ctx.record.tls_sessions.contains("l"));
    const json::object& session = b.ctx.record.tls_sessions.at("l").as_object();
    CHECK(session.at("key_type").as_string() == "p256");
    CHECK(session.at("protocol").as_string().starts_with("TLSv1."));
    CHECK(!session.at("cipher").as_string().empty());

    // Without the CA the generator refuses the certificate: every request a TLS error.
    StepBench untrusted(R"({"step": "load", "name": "l", "duration_s": 0.3, "connections": 1})");
    serve_endpoint(untrusted, server.port(), "https");
    REQUIRE(untrusted.failure_of_all() == "");
    const std::uint64_t errors = count_at(untrusted.load_of("l"), {"requests", "errors"});
    CHECK(errors > 0);
    CHECK(count_at(untrusted.load_of("l"), {"errors", "tls"}) == errors);
    CHECK(untrusted.metric("l.error_pct") == 100);
    CHECK(untrusted.ctx.record.tls_sessions.empty());  // no configure step set TLS up
}
