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

    CHECK(parse_subscription_body("not base64 at all!").problem == "the body is neither base64 nor link text");
    CHECK(parse_subscription_body("").problem == "no links in the body");
    CHECK(parse_subscription_body("\n \r\n").problem == "no links in the body");
    CHECK(parse_subscription_body("aGVsbG8=").problem.find("not a link: 'hello'") == 0);
}

TEST_CASE("subscription links: comment and blank lines are skipped") {
    auto links = parse_subscription_body("#profile-title: x\n  # No Time Limit\n\n\tvless://u@h:443#a  \r\n#\n");
    CHECK(links.problem.empty());
    CHECK(links.comments == 3);
    REQUIRE(links.links.size() == 1);
    CHECK(links.links[0] == "vless://u@h:443#a");
    CHECK(links.unchecked.empty());
    // A line that is neither a link nor a comment still fails, naming it.
    CHECK(parse_subscription_body("vless://u@h:443#a\nNo Time Limit\n").problem == "not a link: 'No Time Limit'");
}

TEST_CASE("subscription links: links of other schemes are counted by scheme, not judged") {
    auto links = parse_subscription_body("ssh://root:pw@h:22#a\nvless://u@h:443#b\nsnell://h:8443?psk=x\n"
                                         "ssh://root:pw@h:2222#c\nhttp://example.com/\n");
    CHECK(links.problem.empty());
    REQUIRE(links.links.size() == 1);
    CHECK(links.links[0] == "vless://u@h:443#b");
    CHECK(links.unchecked == std::map<std::string, std::size_t>{{"http", 1}, {"snell", 1}, {"ssh", 2}});
    CHECK(stand::target::unchecked_text(links.unchecked) == "2 ssh://, 1 http://, 1 snell://");
    CHECK(stand::target::unchecked_text({}).empty());
}

TEST_CASE("subscription links: a base64 body with comment lines") {
    // base64("#profile-title: x\n#No Time Limit\nvless://u@h:443?security=reality#a\n\nssh://root:pw@h:22#s\n")
    auto links = parse_subscription_body(
        "I3Byb2ZpbGUtdGl0bGU6IHgKI05vIFRpbWUgTGltaXQKdmxlc3M6Ly91QGg6NDQzP3NlY3VyaXR5PXJlYWxpdHkjYQoKc3NoOi8vcm9vdDpw"
        "d0BoOjIyI3MK");
    CHECK(links.problem.empty());
    CHECK(links.was_base64);
    CHECK(links.comments == 2);
    REQUIRE(links.links.size() == 1);
    CHECK(links.links[0] == "vless://u@h:443?security=reality#a");
    CHECK(links.unchecked.at("ssh") == 1);
}

TEST_CASE("subscription links: without a link stand checks the subscription fails, naming what it held") {
    auto unknown = parse_subscription_body("#profile-title: x\nssh://root:pw@h:22\nssh://root:pw@h:23\nsnell://h:1\n");
    CHECK(unknown.links.empty());
    CHECK(unknown.problem == "no link stand checks, only 2 ssh://, 1 snell:// and 1 comment line(s) "
                             "(docs/subscriptions.md)");
    // base64("http://example.com/")
    CHECK(parse_subscription_body("aHR0cDovL2V4YW1wbGUuY29tLw==").problem.find("no link stand checks, only 1 http://") == 0);
    CHECK(parse_subscription_body("# only a comment\n").problem ==
          "no link stand checks, only 1 comment line(s) (docs/subscriptions.md)");
}

TEST_CASE("subscription links: URL-safe base64 without padding") {
    auto d = stand::target::base64_decode("dm1lc3M6Ly9hYmM_Pg");
    REQUIRE(d);
    CHECK(*d == "vmess://abc?>");
}
