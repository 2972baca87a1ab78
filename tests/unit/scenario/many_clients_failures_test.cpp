// The tunnel-clients-failed finding names what failed, and only that (issue
// 51: "0 of 20 clients failed to connect" was written when 5 requests had).
#include "scenario/steps/tunnel_support.hpp"

#include <doctest/doctest.h>

using stand::scenario::many_clients_failures;

TEST_CASE("many_clients: the failure text names what failed, and nothing that did not") {
    stand::tunnel::ManyClientsResult r;
    r.clients = 20;
    r.connected = 20;
    r.requests_ok = 1195;
    CHECK(many_clients_failures(r).empty());

    r.requests_failed = 5;
    CHECK(many_clients_failures(r) == "5 of 1200 requests failed (20 of 20 clients connected)");

    r.connected = 17;
    r.handshake_failures = 3;
    r.disconnects = 1;
    CHECK(many_clients_failures(r) ==
          "3 of 20 clients failed to connect, 5 of 1200 requests failed, 1 connection lost after authenticating");

    r.requests_failed = 0;
    r.disconnects = 2;
    CHECK(many_clients_failures(r) == "3 of 20 clients failed to connect, 2 connections lost after authenticating");
}
