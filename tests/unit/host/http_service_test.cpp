// The host's HTTP client against real servers on 127.0.0.1.
#include "host/http/http_service.hpp"

#include "http_test_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <stand/cpp/error.hpp>

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

using stand::host::HttpPolicy;
using stand::host::HttpService;
using namespace stand::test;
namespace json = boost::json;

namespace {

struct Failure {
    stand_result code = STAND_OK;
    std::string message;
    bool contains(std::string_view s) const { return message.find(s) != std::string::npos; }
};

template <class Call>
Failure failure_of(Call&& call) {
    try {
        call();
    } catch (const stand::cpp::Error& e) {
        return {e.code(), e.what()};
    }
    return {};
}

json::object get(const std::string& url) { return {{"method", "GET"}, {"url", url}}; }

std::string header(const TestRequest& r, std::string_view name) {
    const auto it = r.find(name);
    return it == r.end() ? std::string("<none>") : std::string(it->value());
}

unsigned short unused_port() {
    net::io_context ioc;
    net::ip::tcp::acceptor a(ioc, {net::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& content) {
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path = std::filesystem::temp_directory_path() /
               ("stand-http-test-" + std::to_string(::getpid()) + "-" + std::to_string(stamp) +
                ".pem");
        std::ofstream(path) << content;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace

TEST_CASE("http service: GET, JSON, form and raw bodies reach the server") {
    HttpTestServer server([](const TestRequest&) {
        return reply(200, "hello",
                     {{"Content-Type", "text/plain"}, {"X-Multi", "a"}, {"X-Multi", "b"},
                      {"Set-Cookie", "a=1"}, {"Set-Cookie", "b=2"}});
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});

    json::object rq = get(server.url("/status?x=1"));
    rq["headers"] = json::object{{"X-Token", "t0k"}};
    json::object res = http.request(s, rq);
    CHECK(res.at("status") == 200);
    CHECK(res.at("reason") == "OK");
    CHECK(res.at("body") == "hello");
    CHECK_FALSE(res.contains("body_base64"));
    const auto& headers = res.at("headers").as_object();
    CHECK(headers.at("content-type") == "text/plain");
    CHECK(headers.at("x-multi") == "a, b");
    CHECK(headers.at("set-cookie") == "b=2");
    CHECK(res.at("url") == json::value(server.url("/status?x=1")));
    CHECK(res.at("retry_waits") == 0);
    CHECK(res.at("elapsed_ms").as_double() > 0);

    json::object post_json{{"method", "POST"}, {"url", server.url("/api")},
                           {"json", json::parse(R"({"a": [1, 2], "s": "\u00e9"})")}};
    CHECK(http.request(s, post_json).at("status") == 200);
    json::object post_form{{"method", "POST"}, {"url", server.url("/login")},
                           {"form", json::object{{"username", "a b"}, {"password", "p&=\u00e9"}}}};
    CHECK(http.request(s, post_form).at("status") == 200);
    json::object put_raw{{"method", "PUT"}, {"url", server.url("/raw")}, {"body", "x,y\n1,2\n"},
                         {"headers", json::object{{"Content-Type", "text/csv"}}}};
    CHECK(http.request(s, put_raw).at("status") == 200);

    const auto got = server.requests();
    REQUIRE(got.size() == 4);
    CHECK(got[0].method_string() == "GET");
    CHECK(got[0].target() == "/status?x=1");
    CHECK(header(got[0], "X-Token") == "t0k");
    CHECK(header(got[0], "Host") == "127.0.0.1:" + std::to_string(server.port()));
    CHECK(header(got[0], "User-Agent").starts_with("stand/"));
    CHECK(got[0].body().empty());

    CHECK(got[1].method_string() == "POST");
    CHECK(header(got[1], "Content-Type") == "application/json");
    CHECK(json::parse(got[1].body()) == json::parse(R"({"a": [1, 2], "s": "\u00e9"})"));

    CHECK(header(got[2], "Content-Type") == "application/x-www-form-urlencoded");
    CHECK(got[2].body() == "username=a+b&password=p%26%3D%C3%A9");

    CHECK(got[3].method_string() == "PUT");
    CHECK(header(got[3], "Content-Type") == "text/csv");
    CHECK(got[3].body() == "x,y\n1,2\n");
}

TEST_CASE("http service: a session keeps its connection alive") {
    HttpTestServer server([](const TestRequest&) { return reply(204); });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});
    for (int i = 0; i < 3; ++i)
        CHECK(http.request(s, get(server.url("/ping"))).at("status") == 204);
    CHECK(server.connections() == 1);

    http.close_session(s);
    const auto s2 = http.open_session({});
    CHECK(http.request(s2, get(server.url("/ping"))).at("status") == 204);
    CHECK(server.connections() == 2);
    CHECK(failure_of([&] { http.request(s, get(server.url("/ping"))); }).code ==
          STAND_E_INVALID_ARGUMENT);
}

TEST_CASE("http service: a stale kept-alive connection is replaced once") {
    std::atomic<int> n{0};
    HttpTestServer server([&](const TestRequest&) {
        TestReply r = reply(200, "ok");
        if (n++ == 0) r.action = TestReply::Action::respond_then_close;
        return r;
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});
    CHECK(http.request(s, get(server.url("/a"))).at("status") == 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let the close arrive
    CHECK(http.request(s, get(server.url("/b"))).at("status") == 200);
    CHECK(server.connections() == 2);
    CHECK(server.requests().size() == 2);
}

TEST_CASE("http service: a fresh connection closed without an answer is an I/O error") {
    HttpTestServer server([](const TestRequest&) {
        TestReply r;
        r.action = TestReply::Action::close;
        return r;
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});
    const Failure f = failure_of([&] { http.request(s, get(server.url("/"))); });
    CHECK(f.code == STAND_E_IO);
    CHECK(f.contains("closed before a response"));
    CHECK(server.requests().size() == 1);  // not retried: the connection was new
    const auto calls = http.calls();
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].status == 0);
    CHECK(calls[0].error == "io-error");
}

TEST_CASE("http service: cookie jar stores, sends back and deletes cookies") {
    HttpTestServer server([](const TestRequest& r) {
        if (r.target() == "/login")
            return reply(200, "", {{"Set-Cookie", "__Host-sid=abc123; Path=/; Secure; HttpOnly"},
                                   {"Set-Cookie", "theme=dark; Max-Age=3600"}});
        if (r.target() == "/logout")
            return reply(200, "", {{"Set-Cookie", "__Host-sid=; Path=/; Max-Age=0"}});
        return reply(200);
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});
    http.request(s, get(server.url("/login")));
    http.request(s, get(server.url("/me")));
    http.request(s, get(server.url("/logout")));
    http.request(s, get(server.url("/me")));
    json::object explicit_cookie = get(server.url("/me"));
    explicit_cookie["headers"] = json::object{{"Cookie", "mine=1"}};
    http.request(s, explicit_cookie);

    const auto jarless = http.open_session(json::object{{"cookies", false}});
    http.request(jarless, get(server.url("/login")));
    http.request(jarless, get(server.url("/me")));

    const auto got = server.requests();
    REQUIRE(got.size() == 7);
    CHECK(header(got[0], "Cookie") == "<none>");
    CHECK(header(got[1], "Cookie") == "__Host-sid=abc123; theme=dark");
    CHECK(header(got[3], "Cookie") == "theme=dark");
    CHECK(header(got[4], "Cookie") == "mine=1");
    CHECK(header(got[6], "Cookie") == "<none>");
}

TEST_CASE("http service: redirects are followed only when asked") {
    HttpTestServer server([](const TestRequest& r) {
        if (r.target() == "/old") return reply(302, "", {{"Location", "/new"}});
        if (r.target() == "/form") return reply(303, "", {{"Location", "new?from=form"}});
        if (r.target() == "/loop") return reply(307, "", {{"Location", "/loop"}});
        return reply(200, "new");
    });
    HttpService http(HttpPolicy{});

    const auto plain = http.open_session({});
    json::object res = http.request(plain, get(server.url("/old")));
    CHECK(res.at("status") == 302);
    CHECK(res.at("headers").at("location") == "/new");
    CHECK(res.at("url") == json::value(server.url("/old")));
    CHECK(server.requests().size() == 1);

    const auto follow = http.open_session(json::object{{"follow_redirects", true}});
    res = http.request(follow, get(server.url("/old")));
    CHECK(res.at("status") == 200);
    CHECK(res.at("body") == "new");
    CHECK(res.at("url") == json::value(server.url("/new")));

    json::object post{{"method", "POST"}, {"url", server.url("/form")}, {"json", json::object{}}};
    res = http.request(follow, post);
    CHECK(res.at("status") == 200);
    CHECK(res.at("url") == json::value(server.url("/new?from=form")));
    auto got = server.requests();
    REQUIRE(got.size() == 5);
    CHECK(got[3].method_string() == "POST");
    CHECK(got[4].method_string() == "GET");
    CHECK(got[4].target() == "/new?from=form");
    CHECK(got[4].body().empty());
    CHECK(header(got[4], "Content-Type") == "<none>");

    res = http.request(follow, get(server.url("/loop")));
    CHECK(res.at("status") == 307);
    CHECK(server.requests().size() == 5 + 6);  // the request and 5 hops
}

TEST_CASE("http service: redirects to another origin drop credentials and obey the policy") {
    HttpTestServer other([](const TestRequest&) { return reply(200, "other"); });
    HttpTestServer server([&](const TestRequest& r) {
        if (r.target() == "/away") return reply(302, "", {{"Location", other.url("/landing")}});
        return reply(301, "", {{"Location", "http://192.0.2.1/"}});
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session(json::object{{"follow_redirects", true}});
    json::object rq = get(server.url("/away"));
    rq["headers"] = json::object{{"Authorization", "Bearer t"}, {"X-Keep", "1"}};
    CHECK(http.request(s, rq).at("body") == "other");
    const auto landed = other.requests();
    REQUIRE(landed.size() == 1);
    CHECK(header(landed[0], "Authorization") == "<none>");
    CHECK(header(landed[0], "X-Keep") == "1");
    CHECK(header(server.requests().at(0), "Authorization") == "Bearer t");

    const Failure f = failure_of([&] { http.request(s, get(server.url("/remote"))); });
    CHECK(f.code == STAND_E_INVALID_ARGUMENT);
    CHECK(f.contains("refusing non-local target '192.0.2.1'"));
}

TEST_CASE("http service: 429 answers are waited out per Retry-After") {
    std::atomic<int> n{0};
    HttpTestServer server([&](const TestRequest& r) {
        const int i = n++;
        if (r.target() == "/seconds" && i == 0) return reply(429, "", {{"Retry-After", "1"}});
        if (r.target() == "/absent" && i == 2) return reply(429);
        return reply(200, "done");
    });
    HttpService http(HttpPolicy{});
    // Caps keep the test short: Retry-After: 1 becomes 150 ms, the 1 s default 100 ms.
    const auto s = http.open_session(json::object{{"max_retry_after_ms", 150}});

    auto start = std::chrono::steady_clock::now();
    json::object rq = get(server.url("/seconds"));
    rq["label"] = "slow_call";
    json::object res = http.request(s, rq);
    CHECK(res.at("status") == 200);
    CHECK(res.at("retry_waits") == 1);
    CHECK(res.at("elapsed_ms").as_double() >= 150);
    CHECK(ms_since(start) < 900);

    const auto s2 = http.open_session(json::object{{"max_retry_after_ms", 100}});
    start = std::chrono::steady_clock::now();
    res = http.request(s2, get(server.url("/absent")));
    CHECK(res.at("status") == 200);
    CHECK(res.at("retry_waits") == 1);
    CHECK(ms_since(start) >= 100);
    CHECK(ms_since(start) < 900);

    const auto calls = http.calls();
    REQUIRE(calls.size() == 2);
    CHECK(calls[0].label == "slow_call");
    CHECK(calls[0].status == 200);
    CHECK(calls[0].retry_waits == 1);
    CHECK(calls[0].waited_ms >= 150);
    CHECK(calls[0].elapsed_ms >= calls[0].waited_ms);
    CHECK(calls[1].label == "GET /absent");
}

TEST_CASE("http service: after max_429_waits the 429 is the answer") {
    HttpTestServer server(
        [](const TestRequest&) { return reply(429, "slow down", {{"Retry-After", "0"}}); });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session(json::object{{"max_429_waits", 2}});
    json::object res = http.request(s, get(server.url("/")));
    CHECK(res.at("status") == 429);
    CHECK(res.at("body") == "slow down");
    CHECK(res.at("retry_waits") == 2);
    CHECK(server.requests().size() == 3);

    const auto none = http.open_session(json::object{{"max_429_waits", 0}});
    CHECK(http.request(none, get(server.url("/"))).at("retry_waits") == 0);
    CHECK(server.requests().size() == 4);
    CHECK(http.calls().at(0).retry_waits == 2);
}

TEST_CASE("http service: a 429 wait ends when the run is cancelled") {
    HttpTestServer server(
        [](const TestRequest&) { return reply(429, "", {{"Retry-After", "30"}}); });
    std::atomic<bool> cancel{false};
    HttpPolicy policy;
    policy.cancelled = [&] { return cancel.load(); };
    HttpService http(policy);
    const auto s = http.open_session({});
    const auto start = std::chrono::steady_clock::now();
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel = true;
    });
    const Failure f = failure_of([&] { http.request(s, get(server.url("/"))); });
    canceller.join();
    CHECK(f.code == STAND_E_CANCELLED);
    CHECK(ms_since(start) >= 100);
    CHECK(ms_since(start) < 1000);
    CHECK(http.calls().at(0).error == "cancelled");
}

TEST_CASE("http service: a server that never answers times out") {
    HttpTestServer server([](const TestRequest&) {
        TestReply r;
        r.action = TestReply::Action::hang;
        return r;
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session(json::object{{"timeout_ms", 60000}});
    json::object rq = get(server.url("/"));
    rq["timeout_ms"] = 200;
    const auto start = std::chrono::steady_clock::now();
    const Failure f = failure_of([&] { http.request(s, rq); });
    CHECK(f.code == STAND_E_TIMEOUT);
    CHECK(f.contains("timed out"));
    CHECK(ms_since(start) >= 190);
    CHECK(ms_since(start) < 2000);

    const auto short_session = http.open_session(json::object{{"timeout_ms", 100}});
    CHECK(failure_of([&] { http.request(short_session, get(server.url("/"))); }).code ==
          STAND_E_TIMEOUT);
    const auto calls = http.calls();
    REQUIRE(calls.size() == 2);
    CHECK(calls[0].status == 0);
    CHECK(calls[0].error == "timeout");
}

TEST_CASE("http service: a refused connection is unreachable") {
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});
    const Failure f = failure_of([&] {
        http.request(s, get("http://127.0.0.1:" + std::to_string(unused_port()) + "/"));
    });
    CHECK(f.code == STAND_E_UNREACHABLE);
    CHECK(f.contains("cannot connect"));
    CHECK(http.calls().at(0).error == "unreachable");
}

TEST_CASE("http service: non-local targets are refused before any connect") {
    HttpService http(HttpPolicy{});
    const auto s = http.open_session(json::object{{"timeout_ms", 5000}});
    for (const std::string url : {"http://192.0.2.1/", "https://10.0.0.1:8443/x",
                                  "http://[2001:db8::1]:8080/", "http://[::ffff:192.0.2.1]/"}) {
        CAPTURE(url);
        const auto start = std::chrono::steady_clock::now();
        const Failure f = failure_of([&] { http.request(s, get(url)); });
        CHECK(f.code == STAND_E_INVALID_ARGUMENT);
        CHECK(f.contains("refusing non-local target"));
        CHECK(f.contains("--allow-remote"));
        CHECK(ms_since(start) < 500);  // a connect to these would hang until the timeout
    }
    CHECK(failure_of([&] { http.request(s, get("http://192.0.2.1/")); }).contains("'192.0.2.1'"));

    HttpTestServer server([](const TestRequest&) { return reply(200); });
    CHECK(http.request(s, get(server.url("/", "localhost"))).at("status") == 200);
    CHECK(header(server.requests().at(0), "Host") == "localhost:" + std::to_string(server.port()));
}

TEST_CASE("http service: malformed requests and options are refused, naming the key") {
    HttpTestServer server([](const TestRequest&) { return reply(200); });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});

    json::object rq = get(server.url("/"));
    rq["bodyy"] = "x";
    Failure f = failure_of([&] { http.request(s, rq); });
    CHECK(f.code == STAND_E_INVALID_ARGUMENT);
    CHECK(f.contains("'bodyy'"));

    f = failure_of([&] { http.request(s, json::object{{"method", "GET"}}); });
    CHECK(f.code == STAND_E_INVALID_ARGUMENT);
    CHECK(f.contains("'url'"));

    f = failure_of([&] { http.request(s, get("gopher://127.0.0.1/")); });
    CHECK(f.code == STAND_E_INVALID_ARGUMENT);
    CHECK(f.contains("url"));

    f = failure_of([&] { http.open_session(json::object{{"insecure", true}}); });
    CHECK(f.code == STAND_E_INVALID_ARGUMENT);
    CHECK(f.contains("'insecure'"));

    f = failure_of([&] { http.open_session(json::object{{"ca_file", "/nonexistent/ca.pem"}}); });
    CHECK(f.code == STAND_E_INVALID_ARGUMENT);
    CHECK(f.contains("ca_file"));

    CHECK(failure_of([&] { http.request(0, get(server.url("/"))); }).code ==
          STAND_E_INVALID_ARGUMENT);
    CHECK(server.connections() == 0);
    CHECK(http.calls().empty());
}

TEST_CASE("http service: bodies that are not UTF-8 come back as base64") {
    HttpTestServer server([](const TestRequest& r) {
        if (r.target() == "/bin") return reply(200, std::string("\x00\xff\xfe" "abc", 6));
        if (r.target() == "/overlong") return reply(200, "\xc0\xaf");
        return reply(200, "h\xc3\xa9llo");
    });
    HttpService http(HttpPolicy{});
    const auto s = http.open_session({});
    json::object res = http.request(s, get(server.url("/bin")));
    CHECK_FALSE(res.contains("body"));
    CHECK(res.at("body_base64") == "AP/+YWJj");
    CHECK(http.request(s, get(server.url("/overlong"))).at("body_base64") == "wK8=");
    res = http.request(s, get(server.url("/text")));
    CHECK(res.at("body") == "h\xc3\xa9llo");
    CHECK_FALSE(res.contains("body_base64"));
}

TEST_CASE("http service: TLS verifies peers unless told not to") {
    const TestCertificate cert = TestCertificate::make("localhost", "DNS:localhost,IP:127.0.0.1");
    const auto tls = cert.server_context();
    HttpTestServer server([](const TestRequest&) { return reply(200, "secret"); }, tls.get());
    const TempFile ca(cert.cert_pem);
    HttpService http(HttpPolicy{});

    const auto strict = http.open_session({});
    const Failure f = failure_of([&] { http.request(strict, get(server.url("/"))); });
    CHECK(f.code == STAND_E_IO);
    CHECK(f.contains("TLS"));
    CHECK(f.contains("certificate"));

    const auto insecure = http.open_session(json::object{{"insecure_tls", true}});
    CHECK(http.request(insecure, get(server.url("/"))).at("body") == "secret");

    const auto trusted = http.open_session(json::object{{"ca_file", ca.path.string()}});
    CHECK(http.request(trusted, get(server.url("/", "localhost"))).at("status") == 200);
    CHECK(http.request(trusted, get(server.url("/", "localhost"))).at("status") == 200);
    CHECK(http.request(trusted, get(server.url("/"))).at("status") == 200);
    // strict, insecure, trusted via localhost (kept alive), trusted via 127.0.0.1
    CHECK(server.connections() == 4);
}

TEST_CASE("http service: TLS refuses a certificate for another name") {
    const TestCertificate cert = TestCertificate::make("other.test", "DNS:other.test");
    const auto tls = cert.server_context();
    HttpTestServer server([](const TestRequest&) { return reply(200); }, tls.get());
    const TempFile ca(cert.cert_pem);
    HttpService http(HttpPolicy{});
    const auto s = http.open_session(json::object{{"ca_file", ca.path.string()}});
    const Failure f = failure_of([&] { http.request(s, get(server.url("/", "localhost"))); });
    CHECK(f.code == STAND_E_IO);
    CHECK(f.contains("hostname mismatch"));
    CHECK(server.requests().empty());
}

TEST_CASE("http service: sessions work from several threads at once") {
    HttpTestServer server([](const TestRequest& r) { return reply(200, std::string(r.target())); });
    HttpService http(HttpPolicy{});
    std::vector<std::thread> workers;
    std::atomic<int> ok{0};
    for (int t = 0; t < 4; ++t)
        workers.emplace_back([&, t] {
            const auto s = http.open_session({});
            for (int i = 0; i < 10; ++i) {
                const std::string path = "/t" + std::to_string(t) + "/" + std::to_string(i);
                if (http.request(s, get(server.url(path))).at("body") == json::value(path)) ++ok;
            }
            http.close_session(s);
        });
    for (auto& w : workers) w.join();
    CHECK(ok == 40);
    CHECK(http.calls().size() == 40);
    CHECK(server.connections() == 4);
}
