// The proxy comparison's host side: configure/websocket/hold_idle steps,
// backend and placement keys, the knobs the host composes, CPU placement,
// the per-request metrics and findings of a load through a proxy, the
// open-model collapse detector and the summary's proxy sections.
#include "box/cpu_placement.hpp"
#include "detect/load_detectors.hpp"
#include "report/proxy_sections.hpp"
#include "scenario/proxy_load_metrics.hpp"
#include "scenario/steps/proxy_setup.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/steps/load.hpp"
#include "temp_dir.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

using namespace stand;
using namespace stand::scenario;
using stand::test::error_of;
namespace json = boost::json;

namespace {

std::string with_steps(const std::string& steps, const std::string& extra = "") {
    return R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"name": "p", "steps": [)" + steps +
           "]}]" + extra + "}";
}

}  // namespace

TEST_CASE("configure step: knobs, pool (true, false, null), tls key type, websocket") {
    const Scenario s = parse_scenario_text(
        with_steps(R"({"step": "configure", "name": "c1", "upstream_keepalive": null, "tls": "rsa4096", "websocket": true,
                       "knobs": {"workers": 2}},
                      {"step": "configure", "name": "c2", "upstream_keepalive": false, "tls": "off"})",
                   R"(, "backend": {"body_bytes": 128, "threads": 2}, "placement": "auto")"),
        "t.json");
    const auto& c1 = s.phases[0].steps[0].action.get<ConfigureStep>();
    REQUIRE(c1.upstream_keepalive.has_value());
    CHECK(c1.upstream_keepalive->is_null());
    CHECK(c1.tls == "rsa4096");
    CHECK(c1.websocket == true);
    CHECK(c1.knobs.at("workers") == 2);
    const auto& c2 = s.phases[0].steps[1].action.get<ConfigureStep>();
    CHECK(c2.upstream_keepalive->as_bool() == false);
    CHECK(c2.tls == "off");
    REQUIRE(s.backend.has_value());
    CHECK(s.backend->body_bytes == 128);
    CHECK(s.backend->threads == 2);
    CHECK(s.auto_placement);
}

TEST_CASE("configure step, backend and placement: errors name the place") {
    CHECK_MESSAGE(error_of(with_steps(R"({"step": "configure", "tls": "rsa1024"})"))
                          .find("$.phases[0].steps[0].tls: expected a key type (p256, p384, ed25519, rsa2048, rsa3072, "
                                "rsa4096, or \"off\")") != std::string::npos,
                  error_of(with_steps(R"({"step": "configure", "tls": "rsa1024"})")));
    CHECK(error_of(with_steps(R"({"step": "configure", "upstream_keepalive": "yes"})"))
              .find("upstream_keepalive: expected true, false or null") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "configure", "upstream_keepalive": true, "knobs": {"upstream_keepalive": false}})"))
              .find("$.phases[0].steps[0].knobs.upstream_keepalive: expected no upstream_keepalive in knobs") !=
          std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "configure", "tls": "p256", "knobs": {"tls_key": {}}})"))
              .find("knobs.tls_key: expected no tls_key in knobs when the step sets \"tls\"") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "start"})", R"(, "placement": "near")")).find("$.placement") !=
          std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "start"})", R"(, "placement": "auto", "box": {"pin": "0"})"))
              .find("\"none\" when box.pin is given") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "start"})", R"(, "backend": {"body": 1})")).find("$.backend.body") !=
          std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "websocket", "path": "ws"})")).find("path") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "hold_idle", "connections": 0})")).find("connections") != std::string::npos);
}

TEST_CASE("configure step: the host adds the backend, the shared certificate and keeps TLS for later steps") {
    test::TempDir dir;
    ConfigureStep step;
    step.knobs = {{"workers", 2}};
    step.upstream_keepalive = json::value(nullptr);
    step.tls = "p256";
    auto setup = compose_proxy_setup(step, UpstreamAddress{"127.0.0.1", 19000}, dir.path(), {});
    CHECK(setup.knobs.at("upstreams") == json::array{json::object{{"host", "127.0.0.1"}, {"port", 19000}}});
    CHECK(setup.knobs.at("upstream_keepalive").is_null());
    CHECK(setup.knobs.at("listen").at("tls") == true);
    CHECK(setup.knobs.at("tls_key").at("cert_file").as_string() == (dir.path() / "p256.crt").string());
    CHECK(setup.tls.key_type == "p256");
    REQUIRE(setup.tls.ca_file.has_value());

    ConfigureStep next;  // no tls key: TLS stays as it was
    next.upstream_keepalive = json::value(true);
    auto kept = compose_proxy_setup(next, UpstreamAddress{"127.0.0.1", 19000}, dir.path(), setup.tls);
    CHECK(kept.tls.key_type == "p256");
    CHECK_FALSE(kept.knobs.contains("listen"));
    CHECK(kept.knobs.at("upstream_keepalive") == true);

    ConfigureStep plain;
    plain.tls = "off";
    plain.knobs = {{"upstreams", json::array{}}};  // the step's own upstreams win over the backend
    auto off = compose_proxy_setup(plain, UpstreamAddress{"127.0.0.1", 19000}, dir.path(), setup.tls);
    CHECK(off.knobs.at("listen").at("tls") == false);
    CHECK(off.tls.key_type.empty());
    CHECK(off.knobs.at("upstreams").as_array().empty());

    // A relative run directory still gives the proxy absolute paths (nginx
    // would look for a relative one under its own prefix).
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    auto relative = compose_proxy_setup(step, std::nullopt, "runs/r1/certs", {});
    std::filesystem::current_path(cwd);
    CHECK(std::filesystem::path(std::string(relative.knobs.at("tls_key").at("cert_file").as_string())).is_absolute());
    CHECK(std::filesystem::exists(dir.path() / "runs/r1/certs/p256.crt"));
}

TEST_CASE("CPU placement: disjoint when there are CPUs, said when shared") {
    auto three = box::place_on({0, 1, 2, 3});
    CHECK(box::format_cpu_list(three.measured) == "0");
    CHECK(box::format_cpu_list(three.backend) == "1");
    CHECK(box::format_cpu_list(three.generator) == "2-3");
    auto two = box::place_on({0, 1});
    CHECK(box::format_cpu_list(two.measured) == "0");
    CHECK(two.backend == two.generator);
    CHECK(box::format_cpu_list(two.generator) == "1");
    CHECK(two.note.find("share CPU 1") != std::string::npos);
    auto one = box::place_on({3});
    CHECK(one.note.find("one CPU") != std::string::npos);
    CHECK(one.to_json().at("measured") == "3");
    CHECK_THROWS_AS(box::place_on({}), std::invalid_argument);
}

TEST_CASE("proxy load metrics: backend connections per request say why, handshake costs on both sides") {
    ProxyLoadInputs in;
    in.name = "pool_off";
    in.scope = "nginx rep 1, step pool_off";
    in.completed = 1000;
    in.connections = 50;
    in.client_cpu_s = 0.02;
    in.backend_before = target::BackendStats{10, 0, 100, 0, 0};
    in.backend_after = target::BackendStats{1010, 0, 1100, 0, 0};
    in.backend_cpu_s = 0.03;
    json::object metrics;
    json::array findings;
    add_proxy_load_metrics(in, metrics, findings);
    CHECK(metrics.at("pool_off.backend_conns").as_double() == 1000);
    CHECK(metrics.at("pool_off.backend_conns_per_req").as_double() == doctest::Approx(1.0));
    CHECK(metrics.at("pool_off.backend_requests_per_req").as_double() == doctest::Approx(1.0));
    CHECK(metrics.at("pool_off.backend_cpu_us_per_req").as_double() == doctest::Approx(30.0));
    CHECK(metrics.at("pool_off.conns_per_req").as_double() == doctest::Approx(0.05));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].at("id") == "no-backend-reuse");
    CHECK(std::string(findings[0].at("message").as_string())
              .starts_with("the proxy opened 1.00 backend connections per request (1000 for 1000 requests)"));

    ProxyLoadInputs tls;
    tls.name = "tls_p256";
    tls.completed = 2000;
    tls.tls_handshakes = 2000;
    tls.client_cpu_s = 1.2;  // 600 us each
    tls.box_cpu_s = 0.6;     // 300 us each
    json::object m2;
    json::array f2;
    add_proxy_load_metrics(tls, m2, f2);
    CHECK(m2.at("tls_p256.server_us_per_handshake").as_double() == doctest::Approx(300));
    CHECK(m2.at("tls_p256.client_us_per_handshake").as_double() == doctest::Approx(600));
    REQUIRE(f2.size() == 1);
    CHECK(f2[0].at("id") == "generator-bound-tls");

    ProxyLoadInputs pooled = in;
    pooled.backend_after = target::BackendStats{12, 0, 1100, 0, 0};
    json::object m3;
    json::array f3;
    add_proxy_load_metrics(pooled, m3, f3);
    CHECK(m3.at("pool_off.backend_conns_per_req").as_double() == doctest::Approx(0.002));
    CHECK(f3.empty());

    // The scenario turned the pool off: a connection per request is what it asked for, not a finding.
    ProxyLoadInputs asked = in;
    asked.pool_off_by_scenario = true;
    json::object m4;
    json::array f4;
    add_proxy_load_metrics(asked, m4, f4);
    CHECK(m4.at("pool_off.backend_conns_per_req").as_double() == doctest::Approx(1.0));
    CHECK(f4.empty());
}

TEST_CASE("open-model collapse: flagged when the queue climbs while the rate falls short, not when it keeps up") {
    load::LoadResult r;
    r.model = load::Model::open;
    r.rate = 1000;
    r.window_s = 9;
    r.offered = 9000;
    r.sent = 6000;
    r.completed = 6000;
    r.unsent = 3000;
    for (int i = 0; i < 9; ++i) {
        load::SecondStats s;
        s.in_flight_max = 10 + 5 * static_cast<unsigned>(i);
        s.backlog_max = static_cast<std::uint64_t>(i) * 100;
        r.per_second.push_back(s);
    }
    auto found = detect::check_load(r, "caddy rep 1, step open");
    auto collapse = std::find_if(found.begin(), found.end(), [](const auto& f) { return f.id == "open-model-collapse"; });
    REQUIRE(collapse != found.end());
    CHECK(collapse->message.find("offered 1000/s, achieved 667/s") != std::string::npos);

    r.completed = 9000;  // kept up: the queue numbers alone are not a collapse
    found = detect::check_load(r, "caddy rep 1, step open");
    CHECK(std::none_of(found.begin(), found.end(), [](const auto& f) { return f.id == "open-model-collapse"; }));
}

TEST_CASE("summary: every proxy's defaults, what changed per configure step, TLS sessions, placement") {
    auto rep = [](const char* plugin, const char* pool, const char* source) {
        return json::object{
            {"plugin", plugin},
            {"status", "ok"},
            {"proxy_defaults", {{"cfg_defaults", {{"version", "1"}, {"upstream_keepalive", pool}, {"source", source}}},
                                {"cfg_pool_on", {{"version", "1"}, {"upstream_keepalive", "on"}, {"source", "knob"}}}}},
            {"tls_sessions", {{"tls_p256", {{"key_type", "p256"}, {"protocol", "TLSv1.2"}, {"cipher", "X"}, {"alpn", ""}}}}},
            {"placement", {{"measured", "0"}, {"backend", "1"}, {"generator", "1"}, {"note", "two CPUs"}}}};
    };
    std::vector<json::object> reps{rep("nginx", "off", "nginx default"), rep("haproxy", "on", "haproxy default")};
    const auto md = report::proxy_defaults_markdown(reps);
    CHECK(md.find("| Setting | nginx | haproxy |") != std::string::npos);
    CHECK(md.find("| upstream_keepalive | off | on |") != std::string::npos);
    CHECK(md.find("| source | nginx default | haproxy default |") != std::string::npos);
    const auto changed = md.substr(md.find("After `cfg_pool_on`, what changed:"));
    CHECK(changed.find("| upstream_keepalive | on | on |") != std::string::npos);
    CHECK(changed.find("version") == std::string::npos);  // unchanged rows are left out
    CHECK(report::tls_sessions_markdown(reps).find("| nginx | tls_p256 | p256 | TLSv1.2 | X |  |") != std::string::npos);
    CHECK(report::placement_markdown(reps).find("| 0 | 1 | 1 | two CPUs |") != std::string::npos);
    CHECK(report::proxy_defaults_markdown({}).empty());
}
