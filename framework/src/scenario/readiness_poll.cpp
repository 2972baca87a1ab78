#include "scenario/readiness_poll.hpp"

#include <stand/cpp/error.hpp>

#include <thread>

namespace stand::scenario {

ReadyResult poll_until_ready(host::HttpService& http, const boost::json::object& readiness,
                             std::chrono::steady_clock::time_point origin, std::chrono::milliseconds interval,
                             std::chrono::milliseconds per_try_timeout, std::chrono::steady_clock::time_point deadline,
                             const std::atomic<bool>& cancel) {
    std::vector<std::int64_t> expect{200};
    if (auto* e = readiness.if_contains("expect_status")) {
        expect.clear();
        for (const auto& s : e->as_array()) expect.push_back(s.to_number<std::int64_t>());
    }
    boost::json::object request{{"method", readiness.contains("method") ? readiness.at("method") : "GET"},
                                {"url", readiness.at("url")},
                                {"label", "readiness"}};
    if (auto* h = readiness.if_contains("headers")) request["headers"] = *h;
    if (auto* t = readiness.if_contains("per_try_timeout_ms")) per_try_timeout = std::chrono::milliseconds(t->to_number<std::int64_t>());
    request["timeout_ms"] = per_try_timeout.count();

    boost::json::object session_options{{"cookies", false}};
    if (auto* i = readiness.if_contains("insecure_tls"); i && i->is_bool()) session_options["insecure_tls"] = i->as_bool();
    auto session = http.open_session(session_options);
    ReadyResult result;
    std::string last;
    while (true) {
        if (cancel.load()) {
            http.close_session(session);
            throw std::runtime_error("cancelled while waiting for readiness");
        }
        ++result.tries;
        auto tried_at = std::chrono::steady_clock::now();
        try {
            auto response = http.request(session, request);
            auto status = response.at("status").to_number<std::int64_t>();
            if (std::find(expect.begin(), expect.end(), status) != expect.end()) {
                result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - origin).count();
                http.close_session(session);
                return result;
            }
            last = "HTTP " + std::to_string(status);
        } catch (const cpp::Error& e) {
            last = e.what();
        }
        auto next = tried_at + interval;
        if (next >= deadline) {
            http.close_session(session);
            throw ReadinessTimeout("not ready: " + std::string(request.at("url").as_string()) + " gave no expected status in " +
                                   std::to_string(result.tries) + " tries; last: " + last);
        }
        std::this_thread::sleep_until(next);
    }
}

}  // namespace stand::scenario
