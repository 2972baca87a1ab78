// configure: proxy.configure with the knobs the host composes (the step's
// knobs, the scenario's backend as the upstream, the shared test certificate
// of the asked key type), then proxy.effective_defaults recorded under the
// step's name, with the settings the scenario had set by then. What it set
// up (TLS, the upstream pool) is left for the load steps after it.
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

using namespace stand::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// The scenario's backend, as the repetition sees it: only its address is read.
class FakeBackend final : public stand::target::Backend {
public:
    const std::string& host() const override { return host_; }
    std::uint16_t port() const override { return 18080; }
    const std::string& ws_path() const override { return ws_path_; }
    const json::object& info() const override { return info_; }
    stand::target::BackendStats stats() const override { return {}; }
    std::optional<double> cpu_seconds() const override { return std::nullopt; }

private:
    std::string host_ = "127.0.0.1", ws_path_ = "/ws";
    json::object info_;
};

const json::object kDefaults{{"workers", 2}, {"upstream_keepalive", false}, {"keepalive_timeout_s", 75}};

// A proxy that takes any knobs and reports kDefaults.
void proxy_reports_defaults(StepBench& b) { b.port.answer(PortCall::effective_defaults, json::value(kDefaults)); }

json::object knobs_of(const FakePort& port, std::size_t index) {
    return port.args_of(PortCall::configure).at(index).at("knobs").as_object();
}

json::array strings(std::initializer_list<const char*> list) {
    json::array out;
    for (const char* s : list) out.emplace_back(s);
    return out;
}

}  // namespace

STAND_STEP_SAMPLE({"configure",
                   R"({"step": "configure", "knobs": {"workers": 2}, "upstream_keepalive": false, "websocket": true})",
                   "", proxy_reports_defaults});

TEST_CASE("configure step: the step's knobs and keys in one proxy.configure, the effective defaults recorded") {
    StepBench b(R"({"step": "configure", "name": "c1", "knobs": {"workers": 2}, "upstream_keepalive": false,
                    "websocket": true})");
    proxy_reports_defaults(b);
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 2);
    CHECK(b.port.calls()[0].call == PortCall::configure);
    CHECK(b.port.calls()[1].call == PortCall::effective_defaults);
    CHECK(b.port.calls()[0].timeout == std::chrono::seconds(60));
    // Without a backend there are no upstreams to add; no TLS key without "tls".
    CHECK(knobs_of(b.port, 0) == json::object{{"workers", 2}, {"upstream_keepalive", false}, {"websocket", true}});
    CHECK(b.ctx.record.proxy_defaults.at("c1") == kDefaults);
    CHECK(b.ctx.record.proxy_set.at("c1") == strings({"upstream_keepalive", "websocket", "workers"}));
    // For the load steps: the pool off, plain HTTP.
    CHECK(b.ctx.state.upstream_keepalive == false);
    CHECK(b.ctx.state.proxy_tls.key_type.empty());
    CHECK_FALSE(b.ctx.state.proxy_tls.ca_file.has_value());
    CHECK(b.ctx.state.settings_set == std::set<std::string>{"upstream_keepalive", "websocket", "workers"});
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.findings.empty());
    // In the repetition's JSON too.
    const auto doc = b.ctx.record.to_json("ok");
    CHECK(doc.contains("proxy_defaults"));
}

TEST_CASE("configure step: the scenario's backend is the upstream unless the knobs name their own") {
    StepBench b(R"({"step": "configure", "name": "c1"})");
    proxy_reports_defaults(b);
    FakeBackend backend;
    b.env.backend = &backend;
    CHECK(b.failure_of_all() == "");
    CHECK(knobs_of(b.port, 0) ==
          json::object{{"upstreams", json::array{json::object{{"host", "127.0.0.1"}, {"port", 18080}}}}});
    // Setting no knob of its own, the step marks nothing as set by the scenario.
    CHECK(b.ctx.record.proxy_set.at("c1") == json::array{});
    CHECK_FALSE(b.ctx.state.upstream_keepalive.has_value());

    StepBench own(R"({"step": "configure", "knobs": {"upstreams": [{"host": "10.0.0.9", "port": 80}]}})");
    proxy_reports_defaults(own);
    own.env.backend = &backend;
    CHECK(own.failure_of_all() == "");
    CHECK(knobs_of(own.port, 0).at("upstreams") ==
          json::array{json::object{{"host", "10.0.0.9"}, {"port", 80}}});
}

TEST_CASE("configure step: TLS with the shared certificate, kept by later steps until tls off") {
    StepBench b(R"({"step": "configure", "name": "c1", "tls": "p256", "knobs": {"listen": {"port": 8443}}},
                   {"step": "configure", "name": "c2", "knobs": {"workers": 4}},
                   {"step": "configure", "name": "c3", "tls": "off"})");
    proxy_reports_defaults(b);
    b.run(0);
    const auto first = knobs_of(b.port, 0);
    // The listen object the step gave, with TLS on.
    CHECK(first.at("listen") == json::object{{"port", 8443}, {"tls", true}});
    const auto& key = first.at("tls_key").as_object();
    const fs::path cert(std::string(key.at("cert_file").as_string()));
    const fs::path key_file(std::string(key.at("key_file").as_string()));
    CHECK(cert.is_absolute());
    CHECK(cert == fs::absolute(b.dir.root() / "certs" / "p256.crt"));
    CHECK(fs::is_regular_file(cert));
    CHECK(fs::is_regular_file(key_file));
    CHECK(b.ctx.state.proxy_tls.key_type == "p256");
    CHECK(b.ctx.state.proxy_tls.ca_file == cert);
    CHECK(b.ctx.record.proxy_set.at("c1") == strings({"listen", "tls_key_type"}));

    // A step without "tls" sends none, and the proxy keeps serving the key.
    b.run(1);
    CHECK(knobs_of(b.port, 1) == json::object{{"workers", 4}});
    CHECK(b.ctx.state.proxy_tls.key_type == "p256");
    CHECK(b.ctx.state.proxy_tls.ca_file == cert);
    CHECK(b.ctx.record.proxy_set.at("c2") == strings({"listen", "tls_key_type", "workers"}));

    b.run(2);
    CHECK(knobs_of(b.port, 2) == json::object{{"listen", {{"tls", false}}}});
    CHECK(b.ctx.state.proxy_tls.key_type.empty());
    CHECK_FALSE(b.ctx.state.proxy_tls.ca_file.has_value());
    CHECK(b.ctx.record.proxy_set.at("c3") == strings({"listen", "workers"}));
    CHECK(b.ctx.record.proxy_defaults.size() == 3);
}

TEST_CASE("configure step: settings persist between steps, null gives one back to the proxy") {
    StepBench b(R"({"step": "configure", "name": "c1", "upstream_keepalive": true, "knobs": {"workers": 2}},
                   {"step": "configure", "name": "c2", "knobs": {"buffer_kib": 16}},
                   {"step": "configure", "name": "c3", "upstream_keepalive": null, "knobs": {"workers": null}},
                   {"step": "configure", "name": "c4", "knobs": {"upstream_keepalive": false}})");
    proxy_reports_defaults(b);
    b.run(0);
    CHECK(b.ctx.state.upstream_keepalive == true);
    b.run(1);
    // Not sent again, still as the first step set it.
    CHECK_FALSE(knobs_of(b.port, 1).contains("upstream_keepalive"));
    CHECK(b.ctx.state.upstream_keepalive == true);
    CHECK(b.ctx.record.proxy_set.at("c2") == strings({"buffer_kib", "upstream_keepalive", "workers"}));
    b.run(2);
    CHECK(knobs_of(b.port, 2) == json::object{{"workers", nullptr}, {"upstream_keepalive", nullptr}});
    CHECK_FALSE(b.ctx.state.upstream_keepalive.has_value());
    CHECK(b.ctx.record.proxy_set.at("c3") == strings({"buffer_kib"}));
    // The pool set through the knobs counts the same.
    b.run(3);
    CHECK(b.ctx.state.upstream_keepalive == false);
    CHECK(b.ctx.record.proxy_set.at("c4") == strings({"buffer_kib", "upstream_keepalive"}));
}

TEST_CASE("configure step: a failed call ends the repetition naming it, what was not applied is not left") {
    StepBench failed(R"({"step": "configure", "tls": "p256", "upstream_keepalive": true})");
    failed.port.answer(PortCall::configure,
                       [](const json::object&) { return reply_error(STAND_E_INVALID_ARGUMENT, "unknown knob 'workerz'"); });
    CHECK(failed.failure_of_all() == "proxy.configure: unknown knob 'workerz'");
    CHECK(failed.port.count(PortCall::effective_defaults) == 0);
    CHECK(failed.ctx.state.proxy_tls.key_type.empty());
    CHECK_FALSE(failed.ctx.state.upstream_keepalive.has_value());
    CHECK(failed.ctx.state.settings_set.empty());
    CHECK(failed.ctx.record.proxy_defaults.empty());
    CHECK(failed.ctx.record.proxy_set.empty());

    StepBench no_defaults(R"({"step": "configure", "knobs": {"workers": 2}})");
    no_defaults.port.answer(PortCall::effective_defaults,
                            [](const json::object&) { return reply_error(STAND_E_UNSUPPORTED, ""); });
    CHECK(no_defaults.failure_of_all() == "proxy.effective_defaults: unsupported");
    CHECK(no_defaults.ctx.record.proxy_defaults.empty());

    // Defaults that are not an object would be skipped by every reader: refused here.
    StepBench list_defaults(R"({"step": "configure"})");
    list_defaults.port.answer(PortCall::effective_defaults, json::value(json::array{"workers"}));
    CHECK(list_defaults.failure_of_all() == R"(proxy.effective_defaults answered ["workers"], not an object)");
    CHECK(list_defaults.ctx.record.proxy_defaults.empty());

    // The certificate cannot be made: the step fails before calling the plugin.
    StepBench no_certs(R"({"step": "configure", "tls": "p256"})");
    std::ofstream(no_certs.dir.root() / "certs") << "a file where the certificates' directory goes";
    const std::string failure = no_certs.failure_of_all();
    CHECK(failure.starts_with("configure: "));
    CHECK(failure.find("certs") != std::string::npos);
    CHECK(no_certs.port.calls().empty());
}
