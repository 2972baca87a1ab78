// The Envoy bootstrap the envoy plugin writes, for every knob variant,
// checked against the Envoy v3 API (tests/data/envoy/envoy-v3-schema.json,
// from the protobuf descriptors in PyPI xds-protos) and field by field.
#include "envoy_config.hpp"
#include "envoy_schema_check.hpp"

#include <stand/cpp/error.hpp>

#include <doctest/doctest.h>

using stand_envoy::test::envoy_schema_problems;
using stand_envoy::EnvoySettings;
namespace json = boost::json;

namespace {

json::value type_url(const char* message) { return json::value(std::string("type.googleapis.com/") + message); }

EnvoySettings proxy_to_two_upstreams() {
    EnvoySettings s;
    s.knobs.listen_port = 18083;
    s.knobs.upstreams = {{"127.0.0.1", 9001}, {"127.0.0.2", 9002}};
    return s;
}

std::string joined(const std::vector<std::string>& problems) {
    std::string all;
    for (const auto& p : problems) all += p + "\n";
    return all;
}

// The bootstrap, after checking it against the schema and that its file
// text is the same JSON.
json::object checked_bootstrap(const EnvoySettings& s) {
    const json::object b = stand_envoy::envoy_bootstrap(s);
    const auto problems = envoy_schema_problems(b);
    CHECK_MESSAGE(problems.empty(), joined(problems));
    CHECK(json::parse(stand_envoy::render_envoy_config(s)) == b);
    return b;
}

const json::object& only_listener(const json::object& b) {
    const auto& listeners = b.at("static_resources").at("listeners").as_array();
    REQUIRE(listeners.size() == 1);
    return listeners[0].as_object();
}

const json::object& connection_manager(const json::object& b) {
    const auto& chains = only_listener(b).at("filter_chains").as_array();
    REQUIRE(chains.size() == 1);
    const auto& filters = chains[0].at("filters").as_array();
    REQUIRE(filters.size() == 1);
    CHECK(filters[0].at("name") == "envoy.filters.network.http_connection_manager");
    return filters[0].at("typed_config").as_object();
}

const json::object& only_route(const json::object& b) {
    const auto& hosts = connection_manager(b).at("route_config").at("virtual_hosts").as_array();
    REQUIRE(hosts.size() == 1);
    CHECK(hosts[0].at("domains") == json::array{"*"});
    const auto& routes = hosts[0].at("routes").as_array();
    REQUIRE(routes.size() == 1);
    CHECK(routes[0].at("match") == json::object{{"prefix", "/"}});
    return routes[0].as_object();
}

const json::object& only_cluster(const json::object& b) {
    const auto& clusters = b.at("static_resources").at("clusters").as_array();
    REQUIRE(clusters.size() == 1);
    return clusters[0].as_object();
}

}  // namespace

TEST_CASE("envoy config: origin mode answers from a direct_response route, with no cluster") {
    EnvoySettings s;
    s.knobs.listen_port = 18083;
    s.body = "hello";
    const auto b = checked_bootstrap(s);
    CHECK_FALSE(b.contains("admin"));  // no admin server
    CHECK_FALSE(b.contains("overload_manager"));
    CHECK_FALSE(b.at("static_resources").as_object().contains("clusters"));
    const auto& listener = only_listener(b);
    CHECK(listener.at("address") ==
          json::parse(R"({"socket_address":{"address":"127.0.0.1","port_value":18083}})"));
    const auto& hcm = connection_manager(b);
    CHECK(hcm.at("@type") ==
          type_url("envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"));
    CHECK(hcm.at("stat_prefix") == "stand");
    CHECK(hcm.at("codec_type") == "AUTO");
    CHECK_FALSE(hcm.contains("upgrade_configs"));
    CHECK(hcm.at("http_filters") ==
          json::parse(R"([{"name":"envoy.filters.http.router","typed_config":)"
                      R"({"@type":"type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"}}])"));
    const auto& route = only_route(b);
    CHECK(route.at("direct_response") == json::parse(R"({"status":200,"body":{"inline_string":"hello"}})"));
    CHECK_FALSE(route.contains("route"));
    CHECK_FALSE(only_listener(b).at("filter_chains").at(0).as_object().contains("transport_socket"));
}

TEST_CASE("envoy config: proxy mode routes to one STATIC cluster with both upstreams, pool left to Envoy") {
    const auto s = proxy_to_two_upstreams();
    CHECK(stand_envoy::upstream_pool_on(s));  // Envoy's default: reuse
    const auto b = checked_bootstrap(s);
    const auto& route = only_route(b);
    CHECK(route.at("route") == json::object{{"cluster", stand_envoy::kClusterName}});
    CHECK_FALSE(route.contains("direct_response"));
    const auto& c = only_cluster(b);
    CHECK(c.at("name") == stand_envoy::kClusterName);
    CHECK(c.at("type") == "STATIC");
    CHECK(c.at("lb_policy") == "ROUND_ROBIN");
    CHECK(c.at("connect_timeout") == "5s");
    CHECK_FALSE(c.contains("typed_extension_protocol_options"));
    CHECK_FALSE(c.contains("circuit_breakers"));  // Envoy's defaults, reported by the plugin
    CHECK(c.at("load_assignment") == json::parse(R"({"cluster_name":"stand_upstreams","endpoints":[{"lb_endpoints":[
        {"endpoint":{"address":{"socket_address":{"address":"127.0.0.1","port_value":9001}}}},
        {"endpoint":{"address":{"socket_address":{"address":"127.0.0.2","port_value":9002}}}}]}]})"));
}

TEST_CASE("envoy config: pool on is Envoy's default, pool off is one request per upstream connection") {
    auto on = proxy_to_two_upstreams();
    on.knobs.upstream_keepalive = true;
    CHECK(stand_envoy::upstream_pool_on(on));
    CHECK_FALSE(only_cluster(checked_bootstrap(on)).contains("typed_extension_protocol_options"));

    auto off = proxy_to_two_upstreams();
    off.knobs.upstream_keepalive = false;
    CHECK_FALSE(stand_envoy::upstream_pool_on(off));
    const auto b = checked_bootstrap(off);
    const auto& options = only_cluster(b).at("typed_extension_protocol_options").as_object();
    REQUIRE(options.size() == 1);
    const auto& http = options.at(stand_envoy::kHttpProtocolOptions).as_object();
    CHECK(http.at("@type") == type_url("envoy.extensions.upstreams.http.v3.HttpProtocolOptions"));
    CHECK(http.at("common_http_protocol_options") == json::object{{"max_requests_per_connection", 1}});
    CHECK(http.at("explicit_http_config") == json::parse(R"({"http_protocol_options":{}})"));
}

TEST_CASE("envoy config: TLS is a DownstreamTlsContext with the certificate files and h2 + http/1.1 ALPN") {
    auto s = proxy_to_two_upstreams();
    s.knobs.tls = true;
    s.knobs.cert_file = "/certs/p256.crt";
    s.knobs.key_file = "/certs/p256.key";
    const auto b = checked_bootstrap(s);
    const auto& socket = only_listener(b).at("filter_chains").at(0).at("transport_socket").as_object();
    CHECK(socket.at("name") == "envoy.transport_sockets.tls");
    CHECK(socket.at("typed_config") == json::parse(R"({
        "@type":"type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
        "common_tls_context":{
          "tls_certificates":[{"certificate_chain":{"filename":"/certs/p256.crt"},
                               "private_key":{"filename":"/certs/p256.key"}}],
          "alpn_protocols":["h2","http/1.1"]}})"));
}

TEST_CASE("envoy config: websocket adds the upgrade type and a one-hour stream idle timeout") {
    auto s = proxy_to_two_upstreams();
    s.knobs.websocket = true;
    const auto b = checked_bootstrap(s);
    CHECK(connection_manager(b).at("upgrade_configs") == json::parse(R"([{"upgrade_type":"websocket"}])"));
    CHECK(only_route(b).at("route").at("idle_timeout") == "3600s");
}

TEST_CASE("envoy config: max_connections is the overload manager's global downstream connection monitor") {
    auto s = proxy_to_two_upstreams();
    s.knobs.max_connections = 5000;
    const auto b = checked_bootstrap(s);
    CHECK(b.at("overload_manager") == json::parse(R"({"resource_monitors":[{
        "name":"envoy.resource_monitors.global_downstream_max_connections",
        "typed_config":{
          "@type":"type.googleapis.com/envoy.extensions.resource_monitors.downstream_connections.v3.DownstreamConnectionsConfig",
          "max_active_downstream_connections":5000}}]})"));
}

TEST_CASE("envoy config: IPv6 listener, host-name upstreams resolved by STRICT_DNS") {
    auto s = proxy_to_two_upstreams();
    s.knobs.listen_host = "::1";
    s.knobs.upstreams = {{"backend.test", 9001}, {"::1", 9002}};
    const auto b = checked_bootstrap(s);
    CHECK(only_listener(b).at("address").at("socket_address").at("address") == "::1");
    CHECK(only_cluster(b).at("type") == "STRICT_DNS");
}

TEST_CASE("envoy config: a listen host name is refused, naming the knob") {
    stand_proxy_kit::ProxyKnobs k;
    k.listen_host = "localhost";
    CHECK_THROWS_WITH_AS(stand_envoy::check_envoy_knobs(k),
                         "knobs.listen.host: Envoy listens on IP addresses only, not 'localhost'",
                         stand::cpp::ConfigError);
    k.listen_host = "0.0.0.0";
    CHECK_NOTHROW(stand_envoy::check_envoy_knobs(k));
}

TEST_CASE("envoy schema check: it finds what Envoy would refuse") {
    auto off = proxy_to_two_upstreams();
    off.knobs.upstream_keepalive = false;
    const json::object good = stand_envoy::envoy_bootstrap(off);
    REQUIRE(envoy_schema_problems(good).empty());
    auto broken = [&](auto&& edit) {
        json::value b = good;
        edit(b.at("static_resources").at("clusters").at(0).as_object());
        return joined(envoy_schema_problems(b));
    };
    CHECK(broken([](json::object& c) { c["tipe"] = "STATIC"; }) ==
          "static_resources.clusters[0].tipe: no field 'tipe' in envoy.config.cluster.v3.Cluster\n");
    CHECK(broken([](json::object& c) { c["type"] = "STATIK"; }) ==
          "static_resources.clusters[0].type: \"STATIK\" is not a value of "
          "envoy.config.cluster.v3.Cluster.DiscoveryType\n");
    CHECK(broken([](json::object& c) { c["connect_timeout"] = 5; }) ==
          "static_resources.clusters[0].connect_timeout: expected a duration string like \"5s\"\n");
    // The per-cluster field Envoy deprecated in favour of HttpProtocolOptions.
    CHECK(broken([](json::object& c) { c["max_requests_per_connection"] = 1; }) ==
          "static_resources.clusters[0].max_requests_per_connection: deprecated field of "
          "envoy.config.cluster.v3.Cluster\n");
    CHECK(broken([](json::object& c) { c["name"] = ""; }) ==
          "static_resources.clusters[0].name: at least 1 characters\n");
    const std::string options = "static_resources.clusters[0].typed_extension_protocol_options."
                                "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";
    CHECK(broken([](json::object& c) {
              c["typed_extension_protocol_options"].as_object().begin()->value().as_object().erase(
                  "explicit_http_config");
          }) == options + ": oneof upstream_protocol_options of "
                          "envoy.extensions.upstreams.http.v3.HttpProtocolOptions is required\n");
    CHECK(broken([](json::object& c) {
              c["typed_extension_protocol_options"].as_object().begin()->value().as_object()["@type"] =
                  "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOption";
          }) == options + ": message envoy.extensions.upstreams.http.v3.HttpProtocolOption is not in the schema "
                          "extract\n");
    CHECK(broken([](json::object& c) {
              c["load_assignment"].at("endpoints").at(0).at("lb_endpoints").at(0).at("endpoint").at("address").at(
                  "socket_address").as_object()["port_value"] = 70000;
          }) == "static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address."
                "socket_address.port_value: must be lte 65535\n");
}
