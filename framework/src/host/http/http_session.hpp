// One stand.http/1 session: its TLS context (client_tls.hpp), kept-alive connections (one per
// origin), cookie jar, and the redirect and 429 rules of a call.
#pragma once

#include "host/http/connection.hpp"
#include "host/http/cookie_jar.hpp"
#include "host/http/http_options.hpp"
#include "host/http/http_service.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace stand::host::http {

// What a call did so far; kept up to date so that a failed call can be logged too.
struct CallProgress {
    int retry_waits = 0;
    double waited_ms = 0;
    std::string final_url;
    // Called with each answer of the call (a 429 waited out, a redirect hop,
    // the last answer) and the hop that got it, when set.
    std::function<void(const RequestSpec& hop, const Response& response)> answered;
};

class HttpSession {
public:
    // Throws stand::cpp::Error(STAND_E_INVALID_ARGUMENT) for an unusable ca_file.
    HttpSession(SessionOptions options, const HttpPolicy& policy);

    // Throws stand::cpp::Error with the codes of sdk service/http.h.
    Response perform(const RequestSpec& spec, CallProgress& progress);

private:
    // `spec` is the current hop: redirects rewrite its url, method and body.
    Response exchange_waiting_out_429(const RequestSpec& spec, CallProgress& progress);
    Response exchange(const RequestSpec& spec);
    std::unique_ptr<Connection> connect(const Url& url, const Deadline& deadline);
    Request build_request(const RequestSpec& spec);
    void wait(std::chrono::milliseconds delay, CallProgress& progress);

    SessionOptions options_;
    const HttpPolicy& policy_;
    boost::asio::io_context ioc_;
    std::shared_ptr<boost::asio::ssl::context> tls_;  // on the first https:// connection
    std::map<std::string, std::unique_ptr<Connection>> connections_;  // by Url::origin()
    CookieJar cookies_;
};

}  // namespace stand::host::http
