// The HTTP/3 side of the load spec: which fields a request carries, and the
// combinations --http3 refuses. The transport is tested against Caddy in
// tests/quic/check_http3_caddy.sh.
#include "load/http3_request.hpp"
#include "quic/http3_layer.hpp"
#include "load/load_plan.hpp"
#include "load/load_spec.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand::load;

namespace {

std::string field(const std::vector<stand::quic::Http3Field>& fields, const std::string& name) {
    for (const auto& f : fields)
        if (f.name == name) return f.value;
    return "<absent>";
}

LoadSpec h3_spec(const std::string& url) {
    LoadSpec spec;
    spec.links.push_back(Link{"POST", url, {{"X-Link", "one"}, {"Connection", "keep-alive"}}, "body!"});
    spec.http3.enabled = true;
    spec.threads = 1;
    spec.connections = 1;
    return spec;
}

}  // namespace

TEST_CASE("http3 fields: pseudo-headers first, the same precedence as HTTP/1.1, no connection fields") {
    LoadSpec spec = h3_spec("https://localhost:8443/a?b=1");
    spec.identity.headers = {{"X-Link", "spec"}, {"Accept", "*/*"}, {"Transfer-Encoding", "chunked"}};
    spec.identity.xff_pattern = "10.0.0.{k}";
    const auto fields = http3_fields(spec, 0);
    REQUIRE(fields.size() >= 4);
    CHECK(fields[0].name == ":method");
    CHECK(fields[0].value == "POST");
    CHECK(fields[1].value == "https");
    CHECK(fields[2].name == ":authority");
    CHECK(fields[2].value == "localhost:8443");
    CHECK(fields[3].value == "/a?b=1");
    CHECK(field(fields, "x-link") == "one");  // the link's header wins over the spec's
    CHECK(field(fields, "accept") == "*/*");
    CHECK(field(fields, "x-forwarded-for") == "10.0.0.0");
    CHECK(field(fields, "content-length") == "5");
    CHECK(field(fields, "connection") == "<absent>");
    CHECK(field(fields, "transfer-encoding") == "<absent>");
    CHECK(field(fields, "user-agent").rfind("stand-load/", 0) == 0);

    spec.identity.headers = {{"Host", "example.test"}};
    CHECK(http3_fields(spec, 0)[2].value == "example.test");
}

TEST_CASE("http3 spec: what --http3 refuses") {
    auto refused = [](LoadSpec spec, const std::string& why) {
        try {
            spec.validate();
            FAIL("accepted");
        } catch (const LoadSpecError& e) {
            CHECK_MESSAGE(std::string(e.what()).find(why) != std::string::npos, e.what());
        }
    };
    LoadSpec ok = h3_spec("https://localhost:1/");
    CHECK_NOTHROW(ok.validate());
    LoadSpec open = ok;
    open.model = Model::open;
    open.rate = 100;
    refused(open, "closed model only");
    LoadSpec streams = ok;
    streams.http3.streams = 0;
    refused(streams, "--streams");
    LoadSpec cc = ok;
    cc.http3.congestion_control = "brutal";
    refused(cc, "--cc 'brutal'");
    LoadSpec bind = ok;
    bind.identity.bind_prefix = "127.0";
    refused(bind, "--bind-prefix");
    LoadSpec resume = ok;
    resume.tls.resume = true;
    refused(resume, "--tls-resume");

    LoadSpec plain = h3_spec("http://localhost:1/");
    CHECK_THROWS_WITH_AS(prepare_plan(plain), doctest::Contains("HTTP/3 needs an https:// URL"), LoadSpecError);
}

TEST_CASE("http3 :status: three digits in 100..599, anything else is 0 (no status)") {
    using stand::quic::parse_status_field;
    CHECK(parse_status_field("200") == 200);
    CHECK(parse_status_field("100") == 100);
    CHECK(parse_status_field("599") == 599);
    CHECK(parse_status_field("233") == 233);  // Hysteria's authentication answer
    CHECK(parse_status_field("999") == 0);
    CHECK(parse_status_field("099") == 0);
    CHECK(parse_status_field("20") == 0);
    CHECK(parse_status_field("2000") == 0);
    CHECK(parse_status_field("20x") == 0);
    CHECK(parse_status_field("+20") == 0);
    CHECK(parse_status_field("") == 0);
}
