// Pure parts of the load generator: the response parser and the error
// reasons, link patterns, durations, request serialisation, bind addresses,
// spec checks.
#include "load/duration.hpp"
#include "load/link_pattern.hpp"
#include "load/load_plan.hpp"
#include "load/load_result.hpp"
#include "load/load_report.hpp"
#include "load/load_spec.hpp"
#include "load/load_stats.hpp"
#include "load/response_parser.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace stand::load;
using namespace std::chrono_literals;

namespace {

struct Parsed {
    ResponseParser::Result result = ResponseParser::Result::need_more;
    int status = 0;
    std::uint64_t body = 0;
    bool keep_alive = false;
    std::string leftover;
    std::string error;  // the failure's reason
    ErrorKind kind = ErrorKind::parse;
    Phase phase = Phase::headers;
};

// Feeds `wire` in pieces of `step` bytes, keeping unconsumed bytes as a connection does.
Parsed parse(const std::string& wire, std::size_t step, bool head = false, bool eof_at_end = false) {
    ResponseParser p;
    p.reset(head);
    std::string buffer;
    Parsed out;
    std::size_t pos = 0;
    while (pos < wire.size()) {
        const std::size_t n = std::min(step, wire.size() - pos);
        buffer.append(wire, pos, n);
        pos += n;
        std::size_t consumed = 0;
        out.result = p.feed(buffer.data(), buffer.size(), consumed);
        REQUIRE(consumed <= buffer.size());
        buffer.erase(0, consumed);
        if (out.result != ResponseParser::Result::need_more) break;
    }
    if (out.result == ResponseParser::Result::need_more && eof_at_end) out.result = p.eof();
    out.status = p.status();
    out.body = p.body_bytes();
    out.keep_alive = p.keep_alive();
    out.leftover = buffer + wire.substr(pos);
    if (p.error() != nullptr) out.error = p.error();
    out.kind = p.error_kind();
    out.phase = p.phase();
    return out;
}

constexpr auto kDone = ResponseParser::Result::done;
constexpr auto kError = ResponseParser::Result::error;
constexpr auto kMore = ResponseParser::Result::need_more;

}  // namespace

TEST_CASE("load parser: Content-Length, in one piece and byte by byte") {
    const std::string wire =
        "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello";
    for (std::size_t step : {wire.size(), std::size_t{1}, std::size_t{7}}) {
        const Parsed r = parse(wire, step);
        CHECK(r.result == kDone);
        CHECK(r.status == 200);
        CHECK(r.body == 5);
        CHECK(r.keep_alive);
        CHECK(r.leftover.empty());
    }
    // A second response after the first one is left for the caller.
    const Parsed two = parse(wire + "HTTP/1.1 204 No Content\r\n\r\n", 4096);
    CHECK(two.result == kDone);
    CHECK(two.leftover == "HTTP/1.1 204 No Content\r\n\r\n");
}

TEST_CASE("load parser: chunked bodies with extensions and trailers") {
    const std::string wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n"
                             "5;name=value\r\nhello\r\n"
                             "1A\r\nabcdefghijklmnopqrstuvwxyz\r\n"
                             "0\r\nX-Trailer: 1\r\n\r\n";
    for (std::size_t step : {wire.size(), std::size_t{1}, std::size_t{3}, std::size_t{10}}) {
        const Parsed r = parse(wire, step);
        CHECK(r.result == kDone);
        CHECK(r.body == 31);
        CHECK(r.keep_alive);
        CHECK(r.leftover.empty());
    }
    CHECK(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 1).body == 0);
    CHECK(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n", 64).result == kError);
    // Bare LF line ends are accepted.
    CHECK(parse("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nab\n0\n\n", 1).body == 2);
}

TEST_CASE("load parser: framing without a length, HEAD, 204, 304, 1xx") {
    // No length: the body runs until the connection closes.
    const Parsed close = parse("HTTP/1.1 200 OK\r\n\r\nabcdef", 4, false, true);
    CHECK(close.result == kDone);
    CHECK(close.body == 6);
    CHECK_FALSE(close.keep_alive);
    // A truncated length-delimited body is an error at EOF.
    CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 64, false, true).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 64).result == kMore);
    // HEAD: the length describes a body that is not sent.
    const Parsed head = parse("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", 64, true);
    CHECK(head.result == kDone);
    CHECK(head.body == 0);
    CHECK(parse("HTTP/1.1 204 No Content\r\n\r\n", 64).result == kDone);
    CHECK(parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n", 64).result == kDone);
    const Parsed cont = parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", 5);
    CHECK(cont.result == kDone);
    CHECK(cont.status == 201);
    CHECK(cont.body == 2);
}

TEST_CASE("load parser: keep-alive rules and malformed input") {
    CHECK_FALSE(parse("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", 64).keep_alive);
    CHECK_FALSE(parse("HTTP/1.1 200 OK\r\nconnection: Upgrade, CLOSE\r\nContent-Length: 0\r\n\r\n", 64).keep_alive);
    CHECK_FALSE(parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", 64).keep_alive);
    CHECK(parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 64).keep_alive);
    CHECK(parse("HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n", 64).status == 429);
    CHECK(parse("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 64).result == kDone);  // no reason phrase
    CHECK(parse("HTTP/2 200 OK\r\n\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 20 OK\r\n\r\n", 64).result == kError);
    CHECK(parse("garbage\r\n\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 64).result == kError);
    CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", 64).result == kDone);
    // An incomplete header line is not consumed.
    ResponseParser p;
    p.reset(false);
    std::size_t consumed = 99;
    const std::string part = "HTTP/1.1 200 OK\r\nContent-Le";
    CHECK(p.feed(part.data(), part.size(), consumed) == kMore);
    CHECK(consumed == 17);
}

TEST_CASE("load parser: every failure has a reason, a kind and where it happened") {
    struct Case {
        std::string wire;
        const char* reason;
        ErrorKind kind;
        Phase phase;
    };
    const std::string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    const std::vector<Case> cases = {
        {"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n",
         "101 Switching Protocols: the connection left HTTP/1.1", ErrorKind::protocol, Phase::headers},
        {"HTTP/1.1 999 Weird\r\nContent-Length: 0\r\n\r\n", "status code outside 100..599", ErrorKind::parse,
         Phase::headers},
        {"HTTP/1.1 600 Six\r\n\r\n", "status code outside 100..599", ErrorKind::parse, Phase::headers},
        {"HTTP/1.1 099 Low\r\n\r\n", "status code outside 100..599", ErrorKind::parse, Phase::headers},
        {"HTTP/1.1 2x0 OK\r\n\r\n", "malformed status line", ErrorKind::parse, Phase::headers},
        {"<html>HTTP/0.9 has no status line</html>", "no HTTP/1.x status line", ErrorKind::parse, Phase::headers},
        {"HTTP/2 200\r\n\r\n", "no HTTP/1.x status line", ErrorKind::parse, Phase::headers},
        {"HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "malformed header", ErrorKind::parse, Phase::headers},
        {std::string("HTTP/1.1 200 OK\r\nX-A: a\0b\r\nContent-Length: 0\r\n\r\n", 48),
         "NUL byte in the status line, a header or a trailer", ErrorKind::parse, Phase::headers},
        {"HTTP/1.1 200 OK\r\nX-Big: " + std::string(kMaxLineBytes, 'a'), "header line longer than 8 KiB",
         ErrorKind::parse, Phase::headers},
        {chunked + "FFFFFFFFFFFFFFFFFF\r\n", "chunk size too large", ErrorKind::parse, Phase::body},
        {chunked + "zz\r\n", "malformed chunk size", ErrorKind::parse, Phase::body},
        {chunked + "3\r\nabcX", "missing CRLF after chunk data", ErrorKind::parse, Phase::body},
    };
    for (const auto& c : cases) {
        for (std::size_t step : {c.wire.size(), std::size_t{1}, std::size_t{5}}) {
            INFO(c.wire.substr(0, 60) << " in pieces of " << step);
            const Parsed r = parse(c.wire, step);
            CHECK(r.result == kError);
            CHECK(r.error == c.reason);
            CHECK(r.kind == c.kind);
            CHECK(r.phase == c.phase);
        }
    }
    // Not HTTP fails at its first byte, without waiting for a line end.
    CHECK(parse("\x15\x03\x01\x00\x02\x02\x50", 1).result == kError);
    CHECK(parse("HTTP/1.", 64).result == kMore);
}

TEST_CASE("load parser: interim answers are skipped up to a bound, headers are bounded") {
    std::string interim;
    for (unsigned i = 0; i < kMaxInterim; ++i)
        interim += i % 3 == 0 ? "HTTP/1.1 100 Continue\r\n\r\n"
                   : i % 3 == 1 ? "HTTP/1.1 102 Processing\r\n\r\n"
                                : "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n";
    const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    const Parsed skipped = parse(interim + ok, 7);
    CHECK(skipped.result == kDone);
    CHECK(skipped.status == 200);
    CHECK(skipped.body == 2);
    const Parsed flood = parse(interim + "HTTP/1.1 100 Continue\r\n\r\n" + ok, 64);
    CHECK(flood.result == kError);
    CHECK(flood.error == "more than 16 interim (1xx) answers");
    CHECK(flood.kind == ErrorKind::protocol);

    std::string many = "HTTP/1.1 200 OK\r\n";
    while (many.size() <= kMaxHeaderBytes) many += "X-Flood: " + std::string(100, 'v') + "\r\n";
    const Parsed big = parse(many + "Content-Length: 0\r\n\r\n", 4096);
    CHECK(big.result == kError);
    CHECK(big.error == "headers longer than 256 KiB");
    // Just under the bound is fine.
    std::string fits = "HTTP/1.1 200 OK\r\n";
    while (fits.size() + 200 < kMaxHeaderBytes) fits += "X-Fits: " + std::string(100, 'v') + "\r\n";
    CHECK(parse(fits + "Content-Length: 0\r\n\r\n", 4096).result == kDone);
}

TEST_CASE("load error reasons: by phase, and counted per kind and reason") {
    CHECK(std::string(phase_reason(ErrorKind::timeout, Phase::headers)) == "headers incomplete at the timeout");
    CHECK(std::string(phase_reason(ErrorKind::closed, Phase::body)) == "closed in the body");
    CHECK(std::string(phase_reason(ErrorKind::reset, Phase::wait)) == "reset before any byte of the response");
    CHECK(std::string(default_reason(ErrorKind::connect_refused)) == "connection refused");
    ThreadStats stats(1, 2, 1000, false);
    stats.record_error(ErrorKind::parse, "chunk size too large", 0);
    const std::string same_text = "chunk size too large";  // another pointer, the same reason
    stats.record_error(ErrorKind::parse, same_text.c_str(), 1);
    stats.record_error(ErrorKind::protocol, "bytes after the response that no request asked for", 1);
    LoadResult r;
    merge_stats(r, stats, false);
    finish_result(r);
    CHECK(r.errors == 3);
    CHECK(r.error_count(ErrorKind::parse) == 2);
    CHECK(r.error_counts.by_reason[static_cast<std::size_t>(ErrorKind::parse)].at("chunk size too large") == 2);
    const auto json = r.to_json();
    CHECK(json.at("errors").at("protocol").as_uint64() == 1);
    CHECK(json.at("error_reasons").at("parse").at("chunk size too large").as_uint64() == 2);
    CHECK(json.at("per_second").at("errors").as_array().size() == 2);
    const std::string report = format_report(r);
    CHECK(report.find("  Errors: parse 2 protocol 1\n") != std::string::npos);
    CHECK(report.find("\n    2 parse: chunk size too large\n") != std::string::npos);
    CHECK(report.find("\n    1 protocol: bytes after the response that no request asked for\n") != std::string::npos);
}

TEST_CASE("load link pattern: the seed's XFF and expressions") {
    const LinkPattern seed{std::string(kDefaultXffPattern)};
    CHECK(seed.render(0, 200) == "10.0.0.7");
    CHECK(seed.render(1, 200) == "10.0.1.7");
    CHECK(seed.render(255, 200) == "10.0.255.7");
    CHECK(seed.render(256, 200) == "10.1.0.7");
    CHECK(seed.render(300, 200) == "10.1.44.7");
    CHECK(seed.render(65536 + 2, 200) == "10.0.2.7");
    CHECK(LinkPattern("static").render(5, 10) == "static");
    CHECK(LinkPattern("").render(5, 10).empty());
    CHECK(LinkPattern("{k}").render(42, 10) == "42");
    CHECK(LinkPattern("{1 + 2 * 3}").render(0, 1) == "7");
    CHECK(LinkPattern("{(1 + 2) * 3}").render(0, 1) == "9");
    CHECK(LinkPattern("{k / 250 + 1}.{k % 250 + 1}").render(251, 1) == "2.2");
    CHECK(LinkPattern("{n - k - 1}").render(0, 10) == "9");
    CHECK(LinkPattern("{1 << 4 | 1}").render(0, 1) == "17");
    CHECK(LinkPattern("{0xff ^ 0x0f}").render(0, 1) == "240");
    CHECK(LinkPattern("{~0 & 7}").render(0, 1) == "7");
    CHECK(LinkPattern("{-1 & 255}").render(0, 1) == "255");
    CHECK(LinkPattern("{{k}} {k}").render(3, 1) == "{k} 3");
    CHECK_THROWS_AS(LinkPattern("{k"), std::invalid_argument);
    CHECK_THROWS_AS(LinkPattern("k}"), std::invalid_argument);
    CHECK_THROWS_AS(LinkPattern("{k +}"), std::invalid_argument);
    CHECK_THROWS_AS(LinkPattern("{x}"), std::invalid_argument);
    CHECK_THROWS_AS(LinkPattern("{k < 2}"), std::invalid_argument);
    CHECK_THROWS_AS(LinkPattern("{(k}"), std::invalid_argument);
    CHECK_THROWS_AS(LinkPattern("{k / 0}").render(1, 1), std::invalid_argument);
}

TEST_CASE("load durations") {
    CHECK(parse_duration("10s", "d") == 10s);
    CHECK(parse_duration("500ms", "d") == 500ms);
    CHECK(parse_duration("1m", "d") == 60s);
    CHECK(parse_duration("1h", "d") == 3600s);
    CHECK(parse_duration("250us", "d") == 250us);
    CHECK(parse_duration("1.5s", "d") == 1500ms);
    CHECK(parse_duration("3", "d") == 3s);
    CHECK(parse_duration("0", "d", true) == 0s);
    CHECK_THROWS_AS(parse_duration("0", "d"), std::invalid_argument);
    CHECK_THROWS_AS(parse_duration("", "d"), std::invalid_argument);
    CHECK_THROWS_AS(parse_duration("10x", "d"), std::invalid_argument);
    CHECK_THROWS_AS(parse_duration("-1s", "d"), std::invalid_argument);
    CHECK_THROWS_AS(parse_duration("2d", "d"), std::invalid_argument);
    CHECK_THROWS_AS(parse_duration("25h", "d"), std::invalid_argument);
    CHECK(format_duration(10s) == "10s");
    CHECK(format_duration(1500ms) == "1500ms");
    CHECK(format_duration(2min) == "2m");
}

TEST_CASE("load requests: serialisation and header precedence") {
    LoadSpec spec;
    spec.identity.user_agent = "ua/1";
    spec.identity.headers = {{"X-A", "1"}, {"user-agent", "from -H"}, {"X-Forwarded-For", "1.2.3.4"}};
    LinkShape link;
    link.headers = {{"X-A", "2"}};
    std::string r = build_request(spec, link, "/p?q=1", "127.0.0.1:8080", "10.0.0.7");
    CHECK(r.rfind("GET /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n", 0) == 0);
    CHECK(r.find("user-agent: from -H\r\n") != std::string::npos);
    CHECK(r.find("ua/1") == std::string::npos);
    CHECK(r.find("X-A: 2\r\n") != std::string::npos);
    CHECK(r.find("X-A: 1") == std::string::npos);
    CHECK(r.find("X-Forwarded-For: 10.0.0.7\r\n") != std::string::npos);  // the pattern wins
    CHECK(r.find("1.2.3.4") == std::string::npos);
    CHECK(r.find("Connection") == std::string::npos);
    CHECK(r.size() >= 4);
    CHECK(r.substr(r.size() - 4) == "\r\n\r\n");

    spec.keepalive = false;
    link.method = "POST";
    link.body = "{}";
    r = build_request(spec, link, "/", "h", "");
    CHECK(r.find("Connection: close\r\n") != std::string::npos);
    CHECK(r.find("Content-Length: 2\r\n\r\n{}") != std::string::npos);
    CHECK(r.find("X-Forwarded-For: 1.2.3.4\r\n") != std::string::npos);  // no pattern: -H stays
}

TEST_CASE("load bind addresses and header parsing") {
    CHECK(bind_address("127.0", 0).to_string() == "127.0.1.1");
    CHECK(bind_address("127.0", 1).to_string() == "127.0.1.2");
    CHECK(bind_address("127.0", 249).to_string() == "127.0.1.250");
    CHECK(bind_address("127.0", 250).to_string() == "127.0.2.1");
    CHECK(bind_address("11.11", 1000).to_string() == "11.11.5.1");
    CHECK(bind_address("127", 0).to_string() == "127.0.1.1");  // "127" goes on where "127.0" ends
    CHECK(bind_address("127", 63749).to_string() == "127.0.255.250");
    CHECK(bind_address("127", 63750).to_string() == "127.1.1.1");
    CHECK(bind_address("127", 99999).to_string() == "127.1.145.250");
    CHECK(bind_address("127", 256 * 63750 - 1).to_string() == "127.255.255.250");
    CHECK_THROWS_AS(bind_address("127", 256 * 63750), LoadSpecError);
    CHECK_THROWS_AS(bind_address("", 0), LoadSpecError);
    CHECK_THROWS_AS(bind_address("127.", 0), LoadSpecError);
    CHECK_THROWS_AS(bind_address("127.0.0", 0), LoadSpecError);
    CHECK_THROWS_AS(bind_address("256.0", 0), LoadSpecError);
    CHECK_THROWS_AS(bind_address("127.0", 63750), LoadSpecError);
    CHECK(parse_header("X-A:  b c ") == Header{"X-A", "b c"});
    CHECK(parse_header("X-Empty:") == Header{"X-Empty", ""});
    CHECK_THROWS_AS(parse_header("nocolon"), LoadSpecError);
    CHECK_THROWS_AS(parse_header(": v"), LoadSpecError);
    const auto links = links_from_lines("# links\nhttp://a/1\n\n  http://a/2  \r\n", "HEAD");
    REQUIRE(links.size() == 2);
    CHECK(links[1].url == "http://a/2");
    CHECK(links[1].method == "HEAD");
}

TEST_CASE("load spec: validation and local-only targets") {
    LoadSpec spec;
    CHECK_THROWS_AS(spec.validate(), LoadSpecError);  // no links
    spec.links = links_from_lines("http://127.0.0.1:1/\n");
    CHECK_NOTHROW(spec.validate());
    spec.connections = 1;
    spec.threads = 2;
    CHECK_THROWS_AS(spec.validate(), LoadSpecError);
    spec.threads = 1;
    spec.model = Model::open;
    CHECK_THROWS_AS(spec.validate(), LoadSpecError);  // no rate
    spec.rate = 100;
    CHECK_NOTHROW(spec.validate());

    auto refused = [](const std::string& url) {
        LoadSpec s;
        s.links = links_from_lines(url);
        try {
            prepare_plan(s);
        } catch (const LoadSpecError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    for (const char* url : {"http://192.0.2.1/x", "https://10.1.2.3:8443/", "http://[2001:db8::1]/", "http://0.0.0.0/"}) {
        const std::string why = refused(url);
        INFO(url << ": " << why);
        CHECK(why.find("refusing non-local target '" + std::string(url) + "'") != std::string::npos);
        CHECK(why.find("--allow-remote") != std::string::npos);
    }
    CHECK(refused("http://127.0.0.1:8080/").empty());
    CHECK(refused("http://127.9.9.9:8080/").empty());
    CHECK(refused("http://[::1]:8080/").empty());
    CHECK(refused("http://localhost:8080/").empty());
    CHECK(refused("ftp://127.0.0.1/").find("http or https") != std::string::npos);
    // Issue 18 D8: a name was looked up (a DNS query leaving the machine) before the refusal.
    CHECK(refused("http://example.com/").find("refusing non-local target 'http://example.com/' (a name other than "
                                              "localhost is not looked up)") == 0);

    LoadSpec remote;
    remote.links = links_from_lines("http://192.0.2.1/x\n");
    remote.allow_remote = true;
    const Plan plan = prepare_plan(remote);  // allowed: resolves without sending anything
    CHECK(plan.links.size() == 1);
}

TEST_CASE("load target rule: a declared fleet host's address is allowed as loopback is, nothing else") {
    LoadSpec s;
    s.declared_hosts = {"192.0.2.7", "box.internal"};
    auto why = [&](const std::string& url) {
        try {
            check_target(url, s);
        } catch (const LoadSpecError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(why("http://192.0.2.7:8080/").empty());
    CHECK(why("http://box.internal/").empty());
    CHECK(why("http://127.0.0.1/").empty());
    CHECK(why("http://192.0.2.8/").find("refusing non-local target 'http://192.0.2.8/'") == 0);
    CHECK(why("http://192.0.2.8/").find("declared with --host or --generator") != std::string::npos);
    CHECK(why("http://other.internal/").find("is not looked up") != std::string::npos);
    CHECK(why("http://").find("URL") != std::string::npos);
    s.links = links_from_lines("http://192.0.2.7:8080/x\n");
    CHECK(prepare_plan(s).origins.front().endpoint.address().to_string() == "192.0.2.7");
}

TEST_CASE("link list: URLs back to back, shapes shared, copies on demand") {
    LinkList links;
    CHECK(links.empty());
    links.push_back(Link{"GET", "http://127.0.0.1:1/a", {}, {}});
    links.push_back(Link{"GET", "http://127.0.0.1:1/bb", {}, {}});
    CHECK(links.bytes() < 200);
    links.push_back(Link{"POST", "http://127.0.0.1:1/c", {{"X", "1"}}, "{}"});  // a second shape
    REQUIRE(links.size() == 3);
    CHECK(links.url(0) == "http://127.0.0.1:1/a");
    CHECK(links.url(1) == "http://127.0.0.1:1/bb");
    CHECK(links.shape(0).method == "GET");
    CHECK(links.shape(1).method == "GET");
    CHECK(links[2].method == "POST");
    CHECK(links[2].body == "{}");
    CHECK(links[2].headers == std::vector<Header>{{"X", "1"}});
    CHECK(links.front().url == "http://127.0.0.1:1/a");
    std::vector<std::string> urls;
    for (const auto& l : links) urls.push_back(l.url);
    CHECK(urls == std::vector<std::string>{"http://127.0.0.1:1/a", "http://127.0.0.1:1/bb", "http://127.0.0.1:1/c"});
    // Shapes are looked up among the last few only: many distinct ones stay linear, just unshared.
    LinkList many;
    for (int i = 0; i < 2000; ++i) many.push_back(Link{"GET", "http://127.0.0.1:1/", {{"X", std::to_string(i)}}, {}});
    CHECK(many[1999].headers.front().second == "1999");
    CHECK(many[0].headers.front().second == "0");
}

TEST_CASE("load plan: every request in one buffer, origins shared, a source address a route") {
    LoadSpec spec;
    for (int k = 0; k < 600; ++k) spec.links.push_back(Link{"GET", "http://127.0.0.1:8080/sub/" + std::to_string(k), {}, {}});
    spec.links.push_back(Link{"HEAD", "http://localhost:8080/h", {}, {}});
    spec.identity.xff_pattern = "10.{k>>8&255}.{k&255}.7";
    Plan plan = prepare_plan(spec);
    REQUIRE(plan.links.size() == 601);
    CHECK(plan.origins.size() == 2);  // 127.0.0.1:8080 and localhost:8080
    CHECK(plan.routes == 1);          // one endpoint, plain: one route
    std::size_t total = 0;
    for (std::size_t k = 0; k < plan.links.size(); ++k) {
        const auto parts = request_parts(spec, k);
        CHECK(plan.request(plan.links[k]) == build_request(spec, spec.links.shape(k), parts.target, parts.authority, parts.xff));
        total += plan.links[k].request_bytes;
    }
    CHECK(plan.requests.size() == total);
    CHECK(plan.requests.capacity() == total);  // sized once, not doubled
    CHECK(request_parts(spec, 258).xff == "10.1.2.7");
    CHECK(plan.links[600].head);
    CHECK(plan.origin(plan.links[600]).authority == "localhost:8080");
    CHECK(plan.origin(plan.links[600]).sni == "localhost");
    CHECK(plan.origin(plan.links[0]).sni.empty());

    spec.identity.bind_prefix = "127";
    plan = prepare_plan(spec);
    CHECK(plan.routes == 601);
    CHECK(plan.links[600].route == 600);
    CHECK(boost::asio::ip::address_v4(plan.links[250].source_v4).to_string() == "127.0.2.1");
}

TEST_CASE("load result: URLs and per-link counts listed up to kListedLinks, then summarised") {
    LoadResult r;
    r.links = 3;
    r.urls = {"http://a/1", "http://a/2", "http://a/3"};
    r.requests_per_link = {2, 0, 5};
    auto o = r.to_json();
    CHECK(o.at("links") == 3);
    CHECK(o.at("urls").as_array().size() == 3);
    CHECK(!o.contains("urls_not_listed"));
    CHECK(o.at("requests_per_link").as_array().size() == 3);
    const auto& summary = o.at("requests_per_link_summary").as_object();
    CHECK(summary.at("links") == 3);
    CHECK(summary.at("min") == 0);
    CHECK(summary.at("max") == 5);
    CHECK(summary.at("never_requested") == 1);

    r.links = kListedLinks + 5;
    r.requests_per_link.assign(kListedLinks + 5, 1);
    o = r.to_json();
    CHECK(o.at("urls_not_listed") == kListedLinks + 2);
    CHECK(o.at("requests_per_link").is_null());
    CHECK(o.at("requests_per_link_summary").at("never_requested") == 0);
    CHECK(o.at("requests_per_link_summary").at("links") == kListedLinks + 5);
}
