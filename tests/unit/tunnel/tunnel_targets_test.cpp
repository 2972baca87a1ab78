// Where a tunnel may send load without --allow-remote (issue 18 D8): the
// sink the server dials, and the Hysteria server's name (not looked up).
#include "tunnel/client_setup.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand::tunnel;

namespace {

std::string sink_error(const std::string& sink, bool allow_remote = false) {
    try {
        check_sink(sink, allow_remote);
    } catch (const TunnelSpecError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("tunnel targets: the sink is loopback or localhost unless remote targets are allowed") {
    // `stand tunnel ... --sink 10.0.0.1:80` was not refused: the server would have dialed it.
    for (const char* sink : {"10.0.0.1:80", "192.0.2.1:9", "[2001:db8::1]:80", "example.com:80", "0.0.0.0:80"}) {
        CAPTURE(sink);
        CHECK(sink_error(sink).find(std::string("refusing the sink '") + sink + "': the server would dial it") == 0);
        CHECK(sink_error(sink, true).empty());
    }
    for (const char* sink : {"127.0.0.1:80", "127.3.2.1:8080", "[::1]:80", "localhost:9", "sink.localhost:9"}) {
        CAPTURE(sink);
        CHECK(sink_error(sink).empty());
    }
    for (const char* sink : {"", "127.0.0.1", ":80", "127.0.0.1:"}) {
        CAPTURE(sink);
        CHECK(sink_error(sink).find("the sink must be host:port") == 0);
    }
}

TEST_CASE("tunnel targets: a Hysteria server named other than localhost is not looked up") {
    stand::hysteria::HysteriaLink link;
    link.host = "hysteria.example.com";
    link.port = 443;
    try {
        make_client_setup(link, "", "bbr", std::chrono::seconds(1), false);
        FAIL("accepted");
    } catch (const RemoteServerError& e) {
        CHECK(std::string(e.what()).find("is a name other than localhost, which is not looked up") != std::string::npos);
    }
}
