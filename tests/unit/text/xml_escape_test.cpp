// text::xml_escape: only XML 1.0 characters reach a JUnit file or the HTML
// report, whatever a name or a message holds (issue 52, item 10).
#include "text/junit_xml.hpp"
#include "text/utf8.hpp"
#include "text/xml_escape.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

const std::string kFffd = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

TEST_CASE("xml escape: XML's special characters as entities, other characters XML takes kept as they are") {
    using stand::text::xml_escape;
    CHECK(xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(xml_escape("tab\tnl\ncr\r") == "tab\tnl\ncr\r");
    CHECK(xml_escape("h\xC3\xA9llo \xF0\x9F\x98\x80 \xEF\xBF\xBD \xED\x9F\xBF \xEE\x80\x80") ==
          "h\xC3\xA9llo \xF0\x9F\x98\x80 \xEF\xBF\xBD \xED\x9F\xBF \xEE\x80\x80");  // U+D7FF, U+E000
}

TEST_CASE("xml escape: what XML 1.0 cannot hold and bytes that are not UTF-8 become U+FFFD") {
    using stand::text::xml_escape;
    CHECK(xml_escape(std::string("a\x01" "b\x1F", 4)) == "a" + kFffd + "b" + kFffd);
    CHECK(xml_escape(std::string("\0", 1)) == kFffd);
    CHECK(xml_escape("x\xEF\xBF\xBF") == "x" + kFffd);              // U+FFFF
    CHECK(xml_escape("\xEF\xBF\xBE") == kFffd);                     // U+FFFE
    CHECK(xml_escape("\xEF\xB7\x90 \xEF\xB7\xAF") == kFffd + " " + kFffd);  // U+FDD0, U+FDEF
    CHECK(xml_escape("\xF0\x9F\xBF\xBF \xF4\x8F\xBF\xBE") == kFffd + " " + kFffd);  // U+1FFFF, U+10FFFE
    CHECK(xml_escape("caf\xE9") == "caf" + kFffd);                  // Latin-1
    CHECK(xml_escape("\xC0\xAF") == kFffd + kFffd);                 // overlong
    CHECK(xml_escape("\xED\xA0\x80") == kFffd + kFffd + kFffd);     // a surrogate
    CHECK(xml_escape("\xE2\x82") == kFffd + kFffd);                 // cut short
    CHECK(xml_escape("\xF4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd);  // past U+10FFFF
}

TEST_CASE("xml escape: a JUnit suite of hostile names holds valid UTF-8 only") {
    using O = stand::text::JunitCase::Outcome;
    stand::text::JunitSuite s{"gate \xFF\xFE", {{"k\xEF\xBF\xBF", "v\x80"}}, {}};
    s.cases.push_back({"p\xE9", "x\xEF\xBF\xBF", 0, O::failed, "why \x01", "detail \xC3"});
    const std::string xml = stand::text::junit_xml(s);
    CHECK(stand::text::is_valid_utf8(xml));
    CHECK(xml.find("\xEF\xBF\xBF") == std::string::npos);
    CHECK(xml.find("name=\"x" + kFffd + "\"") != std::string::npos);
}

TEST_CASE("utf8: one character decoded, or length 0 where the bytes are not UTF-8") {
    using stand::text::decode_utf8;
    CHECK(decode_utf8("A").code_point == U'A');
    CHECK(decode_utf8("\xC3\xA9").code_point == U'\u00E9');
    CHECK(decode_utf8("\xC3\xA9").length == 2);
    CHECK(decode_utf8("\xF0\x9F\x98\x80").code_point == U'\U0001F600');
    CHECK(decode_utf8("\xEF\xBF\xBF").code_point == 0xFFFF);
    CHECK(decode_utf8("\x80").length == 0);
    CHECK(decode_utf8("\xE9x").length == 0);
    CHECK(decode_utf8("\xF0\x9F\x98").length == 0);
}
