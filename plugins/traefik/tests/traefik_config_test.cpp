// The two Traefik v3 files the traefik plugin writes, for every knob
// variant, checked against the published JSON schemas (tests/data/traefik/,
// from SchemaStore) and field by field.
#include "json_schema_check.hpp"
#include "traefik_config.hpp"

#include <stand/cpp/error.hpp>

#include <doctest/doctest.h>

using stand::test::json_schema_problems;
using stand::test::read_json_file;
using stand_traefik::TraefikSettings;
namespace json = boost::json;

namespace {

constexpr const char* kDynamicFile = "/run/stand/traefik/dynamic.yml";

const json::object& static_schema() {
    static const json::object s =
        read_json_file(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests/data/traefik/traefik-v3.json");
    return s;
}

const json::object& dynamic_schema() {
    static const json::object s = read_json_file(std::filesystem::path(STAND_TEST_SOURCE_DIR) /
                                                 "tests/data/traefik/traefik-v3-file-provider.json");
    return s;
}

std::string joined(const std::vector<std::string>& problems) {
    std::string all;
    for (const auto& p : problems) all += p + "\n";
    return all;
}

TraefikSettings proxy_to_two_upstreams() {
    TraefikSettings s;
    s.knobs.listen_port = 18084;
    s.knobs.upstreams = {{"127.0.0.1", 9001}, {"127.0.0.2", 9002}};
    return s;
}

// The static config, checked against the schema; its file text is the same JSON.
json::object checked_static(const TraefikSettings& s) {
    const json::object c = stand_traefik::traefik_static_config(s, kDynamicFile);
    const auto problems = json_schema_problems(c, static_schema());
    CHECK_MESSAGE(problems.empty(), joined(problems));
    // The schema's root allows any key: Traefik does not, so every one must be a documented section.
    for (const auto& kv : c) CHECK_MESSAGE(static_schema().at("properties").as_object().contains(kv.key()), kv.key());
    CHECK(json::parse(stand_traefik::render_traefik_static(s, kDynamicFile)) == c);
    return c;
}

json::object checked_dynamic(const TraefikSettings& s) {
    const json::object c = stand_traefik::traefik_dynamic_config(s);
    const auto problems = json_schema_problems(c, dynamic_schema());
    CHECK_MESSAGE(problems.empty(), joined(problems));
    CHECK(json::parse(stand_traefik::render_traefik_dynamic(s)) == c);
    return c;
}

}  // namespace

TEST_CASE("traefik config: static config has the entry point, the file provider and no phoning home") {
    const auto s = proxy_to_two_upstreams();
    const auto c = checked_static(s);
    CHECK(c.at("entryPoints") == json::parse(R"({"stand":{"address":"127.0.0.1:18084"}})"));
    CHECK(c.at("providers") == json::parse(R"({"file":{"filename":"/run/stand/traefik/dynamic.yml","watch":false}})"));
    CHECK(c.at("global") == json::parse(R"({"checkNewVersion":false,"sendAnonymousUsage":false})"));
    CHECK(c.at("log") == json::object{{"level", "ERROR"}});
    CHECK_FALSE(c.contains("api"));  // no dashboard
    CHECK_FALSE(c.contains("accessLog"));
    CHECK_FALSE(c.contains("serversTransport"));  // pool unset: Traefik's default
}

TEST_CASE("traefik config: dynamic config routes everything to one load balancer with both upstreams") {
    const auto c = checked_dynamic(proxy_to_two_upstreams());
    CHECK(c.at("http").at("routers") == json::parse(R"json({"stand":{"entryPoints":["stand"],
        "rule":"PathPrefix(`/`)","service":"stand-upstreams"}})json"));
    CHECK(c.at("http").at("services") == json::parse(R"({"stand-upstreams":{"loadBalancer":{"servers":[
        {"url":"http://127.0.0.1:9001"},{"url":"http://127.0.0.2:9002"}]}}})"));
    CHECK_FALSE(c.contains("tls"));
}

TEST_CASE("traefik config: the pool is the default serversTransport's maxIdleConnsPerHost (unset: its 200, on: 1024, off: -1)") {
    auto unset = proxy_to_two_upstreams();
    CHECK(stand_traefik::upstream_pool_on(unset));

    auto on = proxy_to_two_upstreams();
    on.knobs.upstream_keepalive = true;
    CHECK(stand_traefik::upstream_pool_on(on));
    CHECK(checked_static(on).at("serversTransport") == json::object{{"maxIdleConnsPerHost", 1024}});

    auto off = proxy_to_two_upstreams();
    off.knobs.upstream_keepalive = false;
    CHECK_FALSE(stand_traefik::upstream_pool_on(off));
    CHECK(checked_static(off).at("serversTransport") == json::object{{"maxIdleConnsPerHost", -1}});
    // The services use the default transport: nothing about the pool there.
    CHECK(checked_dynamic(off) == checked_dynamic(unset));
}

TEST_CASE("traefik config: TLS on the router, the certificate in the list and as the default store's") {
    auto s = proxy_to_two_upstreams();
    s.knobs.tls = true;
    s.knobs.cert_file = "/certs/p256.crt";
    s.knobs.key_file = "/certs/p256.key";
    const auto c = checked_dynamic(s);
    CHECK(c.at("http").at("routers").at("stand").at("tls") == json::object{});
    CHECK(c.at("tls") == json::parse(R"({
        "certificates":[{"certFile":"/certs/p256.crt","keyFile":"/certs/p256.key"}],
        "stores":{"default":{"defaultCertificate":{"certFile":"/certs/p256.crt","keyFile":"/certs/p256.key"}}}})"));
    CHECK(checked_static(s).at("entryPoints") == json::parse(R"({"stand":{"address":"127.0.0.1:18084"}})"));
}

TEST_CASE("traefik config: websocket needs nothing (Traefik forwards Upgrade), IPv6 addresses are bracketed") {
    auto s = proxy_to_two_upstreams();
    s.knobs.websocket = true;
    s.knobs.listen_host = "::1";
    s.knobs.upstreams = {{"::1", 9001}, {"backend.test", 9002}};
    CHECK(checked_static(s).at("entryPoints").at("stand").at("address") == "[::1]:18084");
    const auto c = checked_dynamic(s);
    CHECK(c.at("http").at("services").at("stand-upstreams").at("loadBalancer").at("servers") ==
          json::parse(R"([{"url":"http://[::1]:9001"},{"url":"http://backend.test:9002"}])"));
    CHECK(c.at("http").at("routers").at("stand").as_object().size() == 3);  // entryPoints, rule, service
}

TEST_CASE("traefik config: origin mode and max_connections are refused as unsupported, naming the knob") {
    stand_proxy_kit::ProxyKnobs origin;
    try {
        stand_traefik::check_traefik_knobs(origin);
        FAIL("origin mode accepted");
    } catch (const stand::cpp::Error& e) {
        CHECK(e.code() == STAND_E_UNSUPPORTED);
        CHECK(std::string(e.what()).starts_with("traefik: origin mode (no knobs.upstreams) is not supported"));
    }
    auto limited = proxy_to_two_upstreams().knobs;
    limited.max_connections = 1000;
    try {
        stand_traefik::check_traefik_knobs(limited);
        FAIL("max_connections accepted");
    } catch (const stand::cpp::Error& e) {
        CHECK(e.code() == STAND_E_UNSUPPORTED);
        CHECK(std::string(e.what()).starts_with("traefik: knobs.max_connections is not supported"));
    }
    CHECK_NOTHROW(stand_traefik::check_traefik_knobs(proxy_to_two_upstreams().knobs));
}

TEST_CASE("traefik schema check: it finds what the schemas forbid") {
    const json::object good_static = stand_traefik::traefik_static_config(proxy_to_two_upstreams(), kDynamicFile);
    const json::object good_dynamic = stand_traefik::traefik_dynamic_config(proxy_to_two_upstreams());
    REQUIRE(json_schema_problems(good_static, static_schema()).empty());
    REQUIRE(json_schema_problems(good_dynamic, dynamic_schema()).empty());

    json::value typo = good_static;
    typo.at("entryPoints").at("stand").as_object()["adress"] = "127.0.0.1:1";
    CHECK(joined(json_schema_problems(typo, static_schema())) == "entryPoints.stand.adress: not allowed here\n");

    json::value wrong_type = good_static;
    wrong_type.at("providers").at("file").as_object()["watch"] = "no";
    CHECK(joined(json_schema_problems(wrong_type, static_schema())) ==
          "providers.file.watch: expected boolean, got \"no\"\n");

    json::value two_kinds = good_dynamic;
    two_kinds.at("http").at("services").at("stand-upstreams").as_object()["weighted"] = json::object{};
    CHECK(joined(json_schema_problems(two_kinds, dynamic_schema())) ==
          "http.services.stand-upstreams: matches 0 of the oneOf schemas, not exactly 1\n");

    json::value no_url = good_dynamic;
    no_url.at("http").at("services").at("stand-upstreams").at("loadBalancer").at("servers").at(0) =
        json::object{{"address", "127.0.0.1:9001"}};
    CHECK(joined(json_schema_problems(no_url, dynamic_schema())) ==
          "http.services.stand-upstreams: matches 0 of the oneOf schemas, not exactly 1\n");

    json::value no_servers = good_dynamic;
    no_servers.at("http").at("services").at("stand-upstreams").at("loadBalancer").at("servers") = json::array{};
    CHECK_FALSE(json_schema_problems(no_servers, dynamic_schema()).empty());  // minItems 1
}
