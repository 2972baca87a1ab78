// A scriptable HTTP/1.1 (optionally TLS) server on 127.0.0.1 for the tests
// of the host's HTTP client, and a self-signed certificate maker. Compiled
// once, in support/http_test_server.cpp (stand_test_support): its coroutines
// over Beast's streams cost each test file that included them 10 s or more.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stand::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;

using TestRequest = bhttp::request<bhttp::string_body>;
using TestResponse = bhttp::response<bhttp::string_body>;

struct TestReply {
    enum class Action {
        respond,            // send `response`, keep the connection if the client wants
        respond_then_close, // send `response` (claiming keep-alive), then drop the connection
        close,              // drop the connection without answering
        hang,               // never answer
    };
    TestResponse response;
    Action action = Action::respond;
};

inline TestReply reply(unsigned status, std::string body = {},
                       std::vector<std::pair<std::string, std::string>> headers = {}) {
    TestReply r;
    r.response.result(status);
    r.response.body() = std::move(body);
    for (auto& [name, value] : headers) r.response.insert(name, value);
    return r;
}

class HttpTestServer {
public:
    using Handler = std::function<TestReply(const TestRequest&)>;

    // `tls` (optional) must outlive the server.
    explicit HttpTestServer(Handler handler, net::ssl::context* tls = nullptr);
    ~HttpTestServer();
    HttpTestServer(const HttpTestServer&) = delete;
    HttpTestServer& operator=(const HttpTestServer&) = delete;

    unsigned short port() const;
    std::string url(const std::string& path, const std::string& host = "127.0.0.1") const;
    int connections() const;
    std::vector<TestRequest> requests() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// A self-signed P-256 certificate that is its own trust anchor.
struct TestCertificate {
    std::string cert_pem;
    std::string key_pem;

    // `san` as in openssl.cnf: "DNS:localhost,IP:127.0.0.1".
    static TestCertificate make(const std::string& common_name, const std::string& san);
    std::unique_ptr<net::ssl::context> server_context() const;
};

}  // namespace stand::test
