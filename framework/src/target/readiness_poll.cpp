#include "target/readiness_poll.hpp"

#include "host/http/tcp_reach.hpp"
#include "host/http/url.hpp"

#include <stand/cpp/error.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <thread>

namespace stand::target {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

// "host:port": "[v6]" or a host without blanks, ':', '/', '[' or ']', then a
// port of 1 to 5 digits. Read by hand, as a regex recursed once per character
// of the host (a long one overflowed the stack).
bool is_host_port(std::string_view text) {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return false;
    const auto host = text.substr(0, colon), port = text.substr(colon + 1);
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), digit)) return false;
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        return std::all_of(host.begin() + 1, host.end() - 1, [](char c) {
            return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
        });
    return !host.empty() && std::none_of(host.begin(), host.end(), [](char c) {
        return std::isspace(static_cast<unsigned char>(c)) || c == ':' || c == '/' || c == '[' || c == ']';
    });
}

// One item of a round: the main request or an "also" entry.
class Probe {
public:
    Probe(host::HttpService& http, const json::object& spec, const std::string& where,
          std::chrono::milliseconds per_try_timeout)
        : http_(http) {
        if (auto* t = spec.if_contains("per_try_timeout_ms")) {
            if (!t->is_number() || t->to_number<double>() <= 0)
                throw std::invalid_argument(where + ".per_try_timeout_ms: expected a positive number");
            per_try_timeout = std::chrono::milliseconds(t->to_number<std::int64_t>());
        }
        timeout_ = per_try_timeout;
        if (auto* tcp = spec.if_contains("tcp")) {
            if (!tcp->is_string()) throw std::invalid_argument(where + ".tcp: expected \"host:port\"");
            const std::string text(tcp->as_string());
            try {
                if (!is_host_port(text)) throw std::invalid_argument(text);
                auto url = host::http::parse_url("http://" + text + "/", where + ".tcp");
                if (url.port == 0) throw std::invalid_argument(text);
                tcp_host_ = url.host;
                tcp_port_ = url.port;
                tcp_ = true;
            } catch (const std::exception&) {
                throw std::invalid_argument(where + ".tcp: expected \"host:port\", got \"" + text + "\"");
            }
            label_ = where + " tcp " + std::string(tcp->as_string());
            return;
        }
        const auto* url = spec.if_contains("url");
        if (url == nullptr || !url->is_string())
            throw std::invalid_argument(where + ": expected a \"url\" (an HTTP request) or \"tcp\": \"host:port\"");
        if (auto* e = spec.if_contains("expect_status")) {
            if (!e->is_array()) throw std::invalid_argument(where + ".expect_status: expected an array of statuses");
            for (const auto& s : e->as_array()) expect_.push_back(s.to_number<std::int64_t>());
        } else {
            expect_.push_back(200);
        }
        request_ = {{"method", spec.contains("method") ? spec.at("method") : json::value("GET")},
                    {"url", *url},
                    {"label", "readiness"},
                    {"timeout_ms", timeout_.count()}};
        if (auto* h = spec.if_contains("headers")) request_["headers"] = *h;
        json::object session_options{{"cookies", false}};
        if (auto* i = spec.if_contains("insecure_tls"); i && i->is_bool()) session_options["insecure_tls"] = i->as_bool();
        session_ = http_.open_session(session_options);
        label_ = where + " " + std::string(url->as_string());
    }
    ~Probe() {
        if (!tcp_) http_.close_session(session_);
    }
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;

    // "" when this item succeeded, else its answer or error.
    std::string attempt() {
        if (tcp_)
            return host::http::tcp_connect_problem(tcp_host_, tcp_port_, http_.allows_remote_targets(), timeout_);
        try {
            auto response = http_.request(session_, request_);
            auto status = response.at("status").to_number<std::int64_t>();
            if (std::find(expect_.begin(), expect_.end(), status) != expect_.end()) return {};
            return "HTTP " + std::to_string(status);
        } catch (const cpp::Error& e) {
            return e.what();
        }
    }
    const std::string& label() const { return label_; }
    std::chrono::milliseconds timeout() const { return timeout_; }

private:
    host::HttpService& http_;
    std::string label_;
    std::chrono::milliseconds timeout_{0};
    json::object request_;
    std::vector<std::int64_t> expect_;
    std::uint64_t session_ = 0;
    bool tcp_ = false;
    std::string tcp_host_;
    std::uint16_t tcp_port_ = 0;
};

std::vector<std::unique_ptr<Probe>> probes_of(host::HttpService& http, const json::object& readiness,
                                              std::chrono::milliseconds per_try_timeout) {
    std::vector<std::unique_ptr<Probe>> probes;
    probes.push_back(std::make_unique<Probe>(http, readiness, "readiness", per_try_timeout));
    if (auto* also = readiness.if_contains("also")) {
        if (!also->is_array()) throw std::invalid_argument("readiness.also: expected an array of checks");
        for (std::size_t i = 0; i < also->as_array().size(); ++i) {
            const auto& item = also->as_array()[i];
            const std::string where = "readiness.also[" + std::to_string(i) + "]";
            if (!item.is_object()) throw std::invalid_argument(where + ": expected an object");
            probes.push_back(std::make_unique<Probe>(http, item.as_object(), where, probes.front()->timeout()));
        }
    }
    return probes;
}

}  // namespace

ReadyResult poll_until_ready(host::HttpService& http, const json::object& readiness, Clock::time_point origin,
                             std::chrono::milliseconds interval, std::chrono::milliseconds per_try_timeout,
                             Clock::time_point deadline, const std::atomic<bool>& cancel, const ExitWatch& exits) {
    auto probes = probes_of(http, readiness, per_try_timeout);
    ReadyResult result;
    std::string failing, last;
    auto stop_if_exited = [&] {
        if (!exits) return;
        auto ended = exits();
        if (ended.empty()) return;
        char after[32];
        std::snprintf(after, sizeof after, "%.2f", std::chrono::duration<double>(Clock::now() - origin).count());
        throw ReadinessExited("not ready: a process of the system ended " + std::string(after) +
                              " s after the start, before it was ready: " + host::describe_exit(ended.front()));
    };
    while (true) {
        if (cancel.load()) throw std::runtime_error("cancelled while waiting for readiness");
        stop_if_exited();
        ++result.tries;
        const auto tried_at = Clock::now();
        failing.clear();
        for (auto& probe : probes) {
            last = probe->attempt();
            if (!last.empty()) {
                failing = probe->label();
                break;
            }
        }
        if (failing.empty()) {
            result.seconds = std::chrono::duration<double>(Clock::now() - origin).count();
            return result;
        }
        auto next = tried_at + interval;
        if (next >= deadline) {
            stop_if_exited();
            throw ReadinessTimeout("not ready: " + failing + " did not succeed in " + std::to_string(result.tries) +
                                   " rounds; last: " + last);
        }
        std::this_thread::sleep_until(next);
    }
}

}  // namespace stand::target
