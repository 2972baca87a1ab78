// Pure unit tests of the pieces behind the host's HTTP client.
#include "host/http/body_codec.hpp"
#include "host/http/cookie_jar.hpp"
#include "host/http/http_date.hpp"
#include "host/http/http_options.hpp"
#include "host/http/url.hpp"

#include <stand/cpp/error.hpp>

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <chrono>

using namespace stand::host::http;
using namespace std::chrono;
using namespace std::chrono_literals;

namespace {

stand_result code_of(auto&& call) {
    try {
        call();
    } catch (const stand::cpp::Error& e) {
        return e.code();
    }
    return STAND_OK;
}

}  // namespace

TEST_CASE("http date: the three HTTP formats and the cookie variant") {
    const auto expected = sys_days{1994y / November / 6} + 8h + 49min + 37s;
    CHECK(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT") == expected);
    CHECK(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT") == expected);
    CHECK(parse_http_date("Sun Nov  6 08:49:37 1994") == expected);
    CHECK(parse_http_date("Wed, 21-Oct-2015 07:28:00 GMT") ==
          sys_days{2015y / October / 21} + 7h + 28min);
    CHECK_FALSE(parse_http_date("soon"));
    CHECK_FALSE(parse_http_date("Mon, 30 Feb 2015 07:28:00 GMT"));
    CHECK_FALSE(parse_http_date("Mon, 01 Feb 2015 25:28:00 GMT"));
}

TEST_CASE("http retry-after: delta seconds, dates, fallback") {
    const auto now = system_clock::now();
    CHECK(retry_after_delay("120", now) == 120s);
    CHECK(retry_after_delay(" 3 ", now) == 3s);
    CHECK(retry_after_delay("0", now) == 0ms);
    CHECK(retry_after_delay(std::nullopt, now) == 1s);
    CHECK(retry_after_delay("later", now) == 1s);
    CHECK(retry_after_delay("99999999999999999999", now) == 86400s);
    const auto base = sys_days{2030y / January / 1} + 12h;
    CHECK(retry_after_delay("Tue, 01 Jan 2030 12:00:10 GMT", base) == 10s);
    CHECK(retry_after_delay("Tue, 01 Jan 2030 11:00:00 GMT", base) == 0ms);
}

TEST_CASE("http url: parsing and refusal") {
    const Url u = parse_url("http://LocalHost:8080/a/b?x=1#frag");
    CHECK(u.scheme == "http");
    CHECK(u.host == "localhost");
    CHECK_FALSE(u.host_is_ip);
    CHECK(u.port == 8080);
    CHECK(u.target == "/a/b?x=1");
    CHECK(u.path == "/a/b");
    CHECK(u.text == "http://LocalHost:8080/a/b?x=1");
    CHECK(u.authority() == "localhost:8080");

    const Url v6 = parse_url("https://[::1]");
    CHECK(v6.host == "::1");
    CHECK(v6.host_is_ip);
    CHECK(v6.port == 443);
    CHECK(v6.target == "/");
    CHECK(v6.authority() == "[::1]");
    CHECK(parse_url("http://127.0.0.1:80/").authority() == "127.0.0.1");

    for (const char* bad : {"ftp://h/", "http://user:pw@h/", "http://h:0/", "http://h:70000/",
                            "not a url", "/relative", "http:///path", "http://h:x/"}) {
        CAPTURE(bad);
        CHECK(code_of([&] { parse_url(bad); }) == STAND_E_INVALID_ARGUMENT);
    }
}

// Issue 18 D8: Boost.URL 1.81 read this as 127.0.0.1 port 80 (the rest a
// path), so `stand load` loaded a port nobody named.
TEST_CASE("http url: a host that starts with an IPv4 address is refused, not cut short") {
    for (const char* text : {"http://127.0.0.1.nip.io:42302/", "http://1.2.3.4.5/", "http://127.0.0.1x:80/"}) {
        CAPTURE(text);
        try {
            parse_url(text, "URL");
            FAIL("accepted");
        } catch (const stand::cpp::Error& e) {
            CHECK(std::string(e.what()).find("a name the URL parser reads whole") != std::string::npos);
        }
    }
    CHECK(parse_url("http://127.0.0.1:42302/x").port == 42302);
    CHECK(parse_url("http://127.0.0.1").path == "/");
    CHECK(parse_url("http://nip.io.127.0.0.1:8/").host == "nip.io.127.0.0.1");
}

TEST_CASE("http url: redirect targets resolve against the current URL") {
    const Url base = parse_url("http://h:81/a/b?q");
    CHECK(resolve_url(base, "c").text == "http://h:81/a/c");
    CHECK(resolve_url(base, "/x?y=1").target == "/x?y=1");
    CHECK(resolve_url(base, "//other:82/z").origin() == "http://other:82");
    CHECK(resolve_url(base, "https://e/").origin() == "https://e:443");
    CHECK(code_of([&] { resolve_url(base, "ftp://e/"); }) == STAND_E_INVALID_ARGUMENT);
}

TEST_CASE("http cookie jar: scoping, replacement and expiry") {
    CookieJar jar;
    const auto now = system_clock::now();
    jar.store("127.0.0.1", "/panel/login", "sid=1; HttpOnly", false, now);
    jar.store("127.0.0.1", "/", "lang=en; Path=/; Max-Age=60", false, now);
    jar.store("127.0.0.1", "/", "old=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT", false, now);
    jar.store("127.0.0.1", "/", "bad-no-equals", false, now);
    CHECK(jar.size() == 2);
    CHECK(jar.header_for("127.0.0.1", "/panel/x", false, now) == "sid=1; lang=en");
    CHECK(jar.header_for("127.0.0.1", "/panelx", false, now) == "lang=en");
    CHECK(jar.header_for("127.0.0.1", "/", false, now) == "lang=en");
    CHECK(jar.header_for("other", "/panel/x", false, now) == "");
    CHECK(jar.header_for("127.0.0.1", "/panel/x", false, now + 61s) == "sid=1");

    jar.store("127.0.0.1", "/panel/login", "sid=2", false, now);
    CHECK(jar.header_for("127.0.0.1", "/panel/", false, now) == "sid=2");
    jar.store("127.0.0.1", "/panel/login", "sid=; Max-Age=0", false, now);
    CHECK(jar.header_for("127.0.0.1", "/panel/", false, now) == "");
}

TEST_CASE("http cookie jar: Secure cookies stay off plain http except on loopback") {
    CookieJar jar;
    jar.store("example.com", "/", "__Host-sid=a; Secure; Path=/", false);
    CHECK(jar.size() == 0);
    jar.store("example.com", "/", "__Host-sid=a; Secure; Path=/", true);
    CHECK(jar.header_for("example.com", "/", true) == "__Host-sid=a");
    CHECK(jar.header_for("example.com", "/", false) == "");
    jar.store("127.0.0.1", "/", "__Host-sid=b; Secure; Path=/", false);
    CHECK(jar.header_for("127.0.0.1", "/", false) == "__Host-sid=b");
}

TEST_CASE("http body codec: UTF-8 check, base64, form encoding") {
    CHECK(is_valid_utf8("plain ascii"));
    CHECK(is_valid_utf8("h\xc3\xa9llo \xf0\x9f\x98\x80"));
    CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong
    CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
    CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
    CHECK_FALSE(is_valid_utf8("\xe2\x82"));          // truncated
    CHECK_FALSE(is_valid_utf8(std::string_view("\xff", 1)));
    CHECK(base64_encode("") == "");
    CHECK(base64_encode("f") == "Zg==");
    CHECK(base64_encode("foobar") == "Zm9vYmFy");
    CHECK(base64_encode(std::string_view("\x00\xff", 2)) == "AP8=");
    CHECK(form_urlencode({{"user", "a b"}, {"pass", "p&=\xc3\xa9"}}) ==
          "user=a+b&pass=p%26%3D%C3%A9");
}

TEST_CASE("http options: defaults, types and unknown keys") {
    const SessionOptions d = parse_session_options({});
    CHECK_FALSE(d.insecure_tls);
    CHECK_FALSE(d.follow_redirects);
    CHECK(d.cookies);
    CHECK(d.timeout == 30000ms);
    CHECK(d.max_429_waits == 60);
    CHECK(d.max_retry_after == 60000ms);

    const SessionOptions o = parse_session_options(
        boost::json::parse(R"({"timeout_ms": 5, "max_429_waits": 0, "cookies": false})")
            .as_object());
    CHECK(o.timeout == 5ms);
    CHECK(o.max_429_waits == 0);
    CHECK_FALSE(o.cookies);

    for (const char* bad : {R"({"timeout": 5})", R"({"timeout_ms": "5"})", R"({"timeout_ms": 0})",
                            R"({"timeout_ms": 1.5})", R"({"max_429_waits": -1})",
                            R"({"cookies": 1})", R"({"ca_file": ""})"}) {
        CAPTURE(bad);
        CHECK(code_of([&] { parse_session_options(boost::json::parse(bad).as_object()); }) ==
              STAND_E_INVALID_ARGUMENT);
    }
}

TEST_CASE("http options: request documents") {
    const RequestSpec r = parse_request(boost::json::parse(
        R"({"method": "POST", "url": "http://127.0.0.1:1/p?q=1", "json": {"a": 1}})").as_object());
    CHECK(r.label == "POST /p");
    CHECK(r.has_body);
    CHECK(r.body == R"({"a":1})");
    CHECK(r.content_type == "application/json");
    CHECK_FALSE(r.timeout);

    try {
        parse_request(boost::json::parse(R"({"method": "GET", "url": "http://h/", "bodyy": ""})")
                          .as_object());
        FAIL("unknown key accepted");
    } catch (const stand::cpp::Error& e) {
        CHECK(e.code() == STAND_E_INVALID_ARGUMENT);
        CHECK(std::string(e.what()).find("'bodyy'") != std::string::npos);
    }
    for (const char* bad :
         {R"({"url": "http://h/"})", R"({"method": "GET"})", R"({"method": 1, "url": "http://h/"})",
          R"({"method": "G T", "url": "http://h/"})", R"({"method": "GET", "url": "ftp://h/"})",
          R"({"method": "GET", "url": "http://h/", "headers": {"X": 1}})",
          R"({"method": "GET", "url": "http://h/", "headers": {"X": "a\r\nB: c"}})",
          R"({"method": "GET", "url": "http://h/", "headers": {"Content-Length": "3"}})",
          R"({"method": "GET", "url": "http://h/", "headers": ["X"]})",
          R"({"method": "POST", "url": "http://h/", "json": {}, "body": ""})",
          R"({"method": "POST", "url": "http://h/", "form": {"a": 1}})",
          R"({"method": "GET", "url": "http://h/", "timeout_ms": 0})"}) {
        CAPTURE(bad);
        CHECK(code_of([&] { parse_request(boost::json::parse(bad).as_object()); }) ==
              STAND_E_INVALID_ARGUMENT);
    }
}
