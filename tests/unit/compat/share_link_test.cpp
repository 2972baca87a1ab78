// Share links: endpoints and credentials as compat's subscriptions-decode reads them.
#include "compat/share_link.hpp"

#include <doctest/doctest.h>

using stand::compat::carries_credential;
using stand::compat::endpoint_problem;
using stand::compat::parse_share_link;

TEST_CASE("share links: endpoint and credential of each scheme") {
    auto vless = parse_share_link("vless://0d6f7a0e-1111-4222-8333-944445555666@127.0.0.1:4443?type=tcp#a");
    REQUIRE(vless.link);
    CHECK(vless.link->host == "127.0.0.1");
    CHECK(vless.link->port == 4443);
    CHECK_FALSE(vless.link->udp);
    CHECK(carries_credential(*vless.link, "0d6f7a0e-1111-4222-8333-944445555666"));
    CHECK_FALSE(carries_credential(*vless.link, "0d6f7a0e"));

    // SIP002: base64url(method:password)@host:port
    auto ss = parse_share_link("ss://Y2hhY2hhMjAtaWV0Zi1wb2x5MTMwNTpzM2NyZXQ@[::1]:8388/?plugin=x#t");
    REQUIRE(ss.link);
    CHECK(ss.link->host == "::1");
    CHECK(ss.link->port == 8388);
    CHECK(carries_credential(*ss.link, "s3cret"));
    // SIP022 (2022 ciphers): percent-encoded method:password
    auto ss2022 = parse_share_link("ss://2022-blake3-aes-128-gcm:a%2Bb%3D@h.local:443#x");
    REQUIRE(ss2022.link);
    CHECK(carries_credential(*ss2022.link, "a+b="));
    // legacy: base64(method:password@host:port)
    auto legacy = parse_share_link("ss://YWVzLTI1Ni1nY206cHdAMTI3LjAuMC4xOjgwODA#old");
    REQUIRE(legacy.link);
    CHECK(legacy.link->host == "127.0.0.1");
    CHECK(legacy.link->port == 8080);
    CHECK(carries_credential(*legacy.link, "pw"));

    // v2rayN vmess: base64 JSON
    auto vmess = parse_share_link("vmess://eyJhZGQiOiIxMjcuMC4wLjEiLCJwb3J0IjoiMTAwODYiLCJpZCI6InV1aWQtMSJ9");
    REQUIRE(vmess.link);
    CHECK(vmess.link->host == "127.0.0.1");
    CHECK(vmess.link->port == 10086);
    CHECK(carries_credential(*vmess.link, "uuid-1"));

    auto hy2 = parse_share_link("hysteria2://p%40ss@127.0.0.1:443/?obfs=salamander#h");
    REQUIRE(hy2.link);
    CHECK(hy2.link->udp);
    CHECK(carries_credential(*hy2.link, "p@ss"));
    auto tuic = parse_share_link("tuic://uuid-2:pw2@127.0.0.1:443?congestion_control=bbr");
    REQUIRE(tuic.link);
    CHECK(carries_credential(*tuic.link, "uuid-2"));
    CHECK(carries_credential(*tuic.link, "pw2"));
    auto trojan = parse_share_link("trojan://h@127.0.0.1:443?password=other#t");
    REQUIRE(trojan.link);
    CHECK(carries_credential(*trojan.link, "other"));

    CHECK(parse_share_link("vmess://not-base64!").problem.find("vmess://") == 0);
    CHECK(parse_share_link("vless://u@127.0.0.1:44x3").problem == "cannot read host:port from '127.0.0.1:44x3'");
}

TEST_CASE("share links: placeholders and wildcards are not real endpoints") {
    auto problem = [](const char* link) {
        auto parsed = parse_share_link(link);
        REQUIRE(parsed.link);
        return endpoint_problem(*parsed.link);
    };
    CHECK(problem("vless://00000000-0000-0000-0000-000000000000@0.0.0.0:1?type=tcp#none") ==
          "the wildcard address 0.0.0.0 as host");
    CHECK(problem("vless://u@[::]:443") == "the wildcard address :: as host");
    CHECK(problem("vless://u@127.0.0.1:0") == "port 0");
    CHECK(problem("vless://u@127.0.0.1") == "no port");
    CHECK(problem("trojan://p@example.com:443") == "the placeholder host example.com (RFC 2606)");
    CHECK(problem("trojan://p@vpn.EXAMPLE.org:443") == "the placeholder host vpn.example.org (RFC 2606)");
    CHECK(problem("trojan://p@node.invalid:443") == "the placeholder host node.invalid (RFC 2606)");
    CHECK(problem("trojan://p@{SERVER}:443") == "an unfilled template '{server}' as host");
    CHECK(problem("trojan://p@:443") == "no host");
    CHECK(problem("trojan://p@localhost:443").empty());
    CHECK(problem("trojan://p@127.0.0.1:443").empty());
    CHECK(problem("trojan://p@[::1]:443").empty());
    CHECK(problem("trojan://p@vpn.example-corp.net:443").empty());
    CHECK(problem("ss://YWVzLTI1Ni1nY206cHc@node1.bench.test:1234").empty());
}
