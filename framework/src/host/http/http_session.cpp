#include "host/http/http_session.hpp"

#include "host/http/client_tls.hpp"
#include "host/http/http_date.hpp"
#include "host/http/target_resolver.hpp"

#include <boost/algorithm/string/predicate.hpp>
#include <boost/beast/http/field.hpp>

#include <algorithm>
#include <thread>

namespace stand::host::http {
namespace {

namespace bhttp = boost::beast::http;
using namespace std::chrono_literals;

constexpr int max_redirects = 5;

bool has_header(const RequestSpec& spec, std::string_view name) {
    return std::any_of(spec.headers.begin(), spec.headers.end(),
                       [&](const auto& h) { return boost::algorithm::iequals(h.first, name); });
}

void drop_header(RequestSpec& spec, std::string_view name) {
    std::erase_if(spec.headers,
                  [&](const auto& h) { return boost::algorithm::iequals(h.first, name); });
}

bool is_redirect(unsigned status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

}  // namespace

HttpSession::HttpSession(SessionOptions options, const HttpPolicy& policy)
    : options_(std::move(options)), policy_(policy) {
    // An unusable ca_file fails here, before any request; without one the
    // context waits for the first https:// connection.
    if (!options_.ca_file.empty()) tls_ = client_tls_context(options_.ca_file, options_.insecure_tls);
}

Response HttpSession::perform(const RequestSpec& spec, CallProgress& progress) {
    RequestSpec hop = spec;
    progress.final_url = hop.url.text;
    for (int redirects = 0;; ++redirects) {
        Response response = exchange_waiting_out_429(hop, progress);
        const unsigned status = response.result_int();
        const auto location = response.find(bhttp::field::location);
        if (!options_.follow_redirects || !is_redirect(status) || location == response.end() ||
            redirects == max_redirects)
            return response;
        Url next = resolve_url(hop.url, location->value());
        if (status == 303 && hop.method != "HEAD") {
            hop.method = "GET";
            hop.has_body = false;
            hop.body.clear();
            hop.content_type.clear();
            drop_header(hop, "content-type");
        }
        // What the caller gave for one origin is not handed to another.
        if (next.origin() != hop.url.origin()) {
            drop_header(hop, "authorization");
            drop_header(hop, "cookie");
            drop_header(hop, "host");
        }
        hop.url = std::move(next);
        progress.final_url = hop.url.text;
    }
}

Response HttpSession::exchange_waiting_out_429(const RequestSpec& spec, CallProgress& progress) {
    for (;;) {
        Response response = exchange(spec);
        if (progress.answered) progress.answered(spec, response);
        if (response.result_int() != 429 || progress.retry_waits >= options_.max_429_waits)
            return response;
        const auto header = response.find(bhttp::field::retry_after);
        const auto delay = retry_after_delay(
            header == response.end() ? std::nullopt : std::optional(header->value()),
            std::chrono::system_clock::now());
        wait(std::min(delay, options_.max_retry_after), progress);
    }
}

void HttpSession::wait(std::chrono::milliseconds delay, CallProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    const auto end = start + delay;
    for (;;) {
        if (policy_.cancelled && policy_.cancelled())
            throw cpp::Error(STAND_E_CANCELLED, "cancelled while waiting out an HTTP 429 answer");
        const auto now = std::chrono::steady_clock::now();
        if (now >= end) break;
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(end - now, 50ms));
    }
    ++progress.retry_waits;
    progress.waited_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<Connection> HttpSession::connect(const Url& url, const Deadline& deadline) {
    const auto endpoints = resolve_target(ioc_, url, policy_.allow_remote_targets, deadline);
    const bool https = url.scheme == "https";
    if (https && !tls_) tls_ = client_tls_context(options_.ca_file, options_.insecure_tls);
    return std::make_unique<Connection>(ioc_, https ? tls_.get() : nullptr,
                                        !options_.insecure_tls, url, endpoints, deadline);
}

Response HttpSession::exchange(const RequestSpec& spec) {
    const Deadline deadline = Deadline::after(spec.timeout.value_or(options_.timeout));
    const Request request = build_request(spec);

    std::unique_ptr<Connection> connection;
    if (const auto kept = connections_.find(spec.url.origin()); kept != connections_.end()) {
        connection = std::move(kept->second);
        connections_.erase(kept);
    } else {
        connection = connect(spec.url, deadline);
    }
    Response response;
    try {
        response = connection->exchange(request, deadline);
    } catch (const ConnectionLost&) {
        if (!connection->reused()) throw;
        connection = connect(spec.url, deadline);
        response = connection->exchange(request, deadline);
    }
    if (connection->keep_alive()) connections_.emplace(spec.url.origin(), std::move(connection));

    if (options_.cookies) {
        const bool secure = spec.url.scheme == "https";
        for (const auto& field : response)
            if (field.name() == bhttp::field::set_cookie)
                cookies_.store(spec.url.host, spec.url.path, field.value(), secure);
    }
    return response;
}

Request HttpSession::build_request(const RequestSpec& spec) {
    Request request;
    request.method_string(spec.method);
    request.target(spec.url.target);
    request.version(11);
    if (!has_header(spec, "host")) request.set(bhttp::field::host, spec.url.authority());
    if (!has_header(spec, "user-agent"))
        request.set(bhttp::field::user_agent, "stand/" STAND_HOST_VERSION);
    if (spec.has_body) {
        if (!spec.content_type.empty() && !has_header(spec, "content-type"))
            request.set(bhttp::field::content_type, spec.content_type);
        request.body() = spec.body;
    }
    if (options_.cookies && !has_header(spec, "cookie")) {
        const std::string cookies =
            cookies_.header_for(spec.url.host, spec.url.path, spec.url.scheme == "https");
        if (!cookies.empty()) request.set(bhttp::field::cookie, cookies);
    }
    for (const auto& [name, value] : spec.headers) request.insert(name, value);
    request.prepare_payload();
    return request;
}

}  // namespace stand::host::http
