#include "target/subscription_links.hpp"

#include <doctest/doctest.h>

using stand::target::parse_subscription_body;

TEST_CASE("subscription links: base64 bodies decode to links with known schemes") {
    // base64("vless://u@h:443?security=reality#a\nhysteria2://p@h:443/#b\n")
    auto ok = parse_subscription_body("dmxlc3M6Ly91QGg6NDQzP3NlY3VyaXR5PXJlYWxpdHkjYQpoeXN0ZXJpYTI6Ly9wQGg6NDQzLyNiCg==");
    CHECK(ok.problem.empty());
    CHECK(ok.was_base64);
    REQUIRE(ok.links.size() == 2);
    CHECK(ok.links[1] == "hysteria2://p@h:443/#b");

    auto plain = parse_subscription_body("ss://YWVzLTEyOC1nY206cGFzcw@h:1080#x\r\n");
    CHECK(plain.problem.empty());
    CHECK_FALSE(plain.was_base64);

    CHECK(parse_subscription_body("aHR0cDovL2V4YW1wbGUuY29tLw==").problem.find("unknown link scheme 'http://'") == 0);
    CHECK(parse_subscription_body("not base64 at all!").problem == "the body is neither base64 nor link text");
    CHECK(parse_subscription_body("").problem == "no links in the body");
    CHECK(parse_subscription_body("aGVsbG8=").problem.find("not a link: 'hello'") == 0);
}

TEST_CASE("subscription links: URL-safe base64 without padding") {
    auto d = stand::target::base64_decode("dm1lc3M6Ly9hYmM_Pg");
    REQUIRE(d);
    CHECK(*d == "vmess://abc?>");
}
