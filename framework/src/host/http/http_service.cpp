#include "host/http/http_service.hpp"

#include "host/http/describe_exchange.hpp"
#include "host/http/http_options.hpp"
#include "host/http/http_session.hpp"
#include "host/http/response_json.hpp"

#include <stand/cpp/error.hpp>

#include <chrono>
#include <map>

namespace stand::host {

struct HttpService::Session {
    Session(http::SessionOptions options, const HttpPolicy& policy)
        : client(std::move(options), policy) {}
    http::HttpSession client;
};

struct HttpService::Impl {
    HttpPolicy policy;
    mutable std::mutex mutex;
    std::uint64_t next_id = 1;
    std::map<std::uint64_t, std::shared_ptr<Session>> sessions;
    std::vector<HttpCallRecord> calls;
    std::vector<http::ExchangeRecord> exchanges;

    void record(HttpCallRecord call) {
        std::lock_guard lock(mutex);
        calls.push_back(std::move(call));
    }
    void record(http::ExchangeRecord exchange) {
        std::lock_guard lock(mutex);
        exchanges.push_back(std::move(exchange));
    }
};

HttpService::HttpService(HttpPolicy policy) : impl_(std::make_unique<Impl>()) {
    impl_->policy = std::move(policy);
}

HttpService::~HttpService() = default;

bool HttpService::allows_remote_targets() const noexcept {
    return impl_->policy.allow_remote_targets;
}

std::uint64_t HttpService::open_session(const boost::json::object& options) {
    auto session = std::make_shared<Session>(http::parse_session_options(options), impl_->policy);
    std::lock_guard lock(impl_->mutex);
    const std::uint64_t id = impl_->next_id++;
    impl_->sessions.emplace(id, std::move(session));
    return id;
}

void HttpService::close_session(std::uint64_t session) {
    std::shared_ptr<Session> closing;  // destroyed outside the lock
    std::lock_guard lock(impl_->mutex);
    if (const auto it = impl_->sessions.find(session); it != impl_->sessions.end()) {
        closing = std::move(it->second);
        impl_->sessions.erase(it);
    }
}

boost::json::object HttpService::request(std::uint64_t session,
                                         const boost::json::object& request) {
    std::shared_ptr<Session> s;
    {
        std::lock_guard lock(impl_->mutex);
        const auto it = impl_->sessions.find(session);
        if (it != impl_->sessions.end()) s = it->second;
    }
    if (!s)
        throw cpp::Error(STAND_E_INVALID_ARGUMENT,
                         "unknown http session " + std::to_string(session));
    const http::RequestSpec spec = http::parse_request(request);

    const auto start = std::chrono::steady_clock::now();
    http::CallProgress progress;
    if (impl_->policy.record_exchanges)
        progress.answered = [this](const http::RequestSpec& hop, const http::Response& response) {
            impl_->record(http::describe_exchange(hop.label, hop.method, hop.url.path, response));
        };
    HttpCallRecord call;
    call.label = spec.label;
    call.method = spec.method;
    call.url = spec.url.text;
    const auto record = [&] {
        call.elapsed_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        call.retry_waits = progress.retry_waits;
        call.waited_ms = progress.waited_ms;
        impl_->record(call);
    };
    try {
        const http::Response response = s->client.perform(spec, progress);
        call.status = static_cast<int>(response.result_int());
        record();
        return http::response_json(response, progress.final_url, call.elapsed_ms, call.retry_waits);
    } catch (const std::exception& e) {
        const auto* error = dynamic_cast<const cpp::Error*>(&e);
        call.error = stand_result_name(error != nullptr ? error->code() : STAND_E_INTERNAL);
        record();
        throw;
    }
}

std::vector<HttpCallRecord> HttpService::calls() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->calls;
}

std::vector<http::ExchangeRecord> HttpService::exchanges() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->exchanges;
}

}  // namespace stand::host
