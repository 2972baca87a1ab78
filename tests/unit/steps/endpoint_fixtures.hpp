// The plugin's endpoint and readiness request as the steps' tests serve them,
// and the scenario's backend in this process.
#pragma once

#include "step_bench.hpp"
#include "../http_test_server.hpp"
#include "backend/backend_server.hpp"
#include "target/backend.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace stand::test {

// The plugin's endpoint, as proxy.endpoint answers it.
inline void serve_endpoint(StepBench& b, unsigned short port, const char* scheme = "http",
                           const char* host = "127.0.0.1") {
    b.env.through_proxy = true;  // a proxy: it has an endpoint
    b.port.answer(PortCall::endpoint,
                  boost::json::value(boost::json::object{{"scheme", scheme}, {"host", host}, {"port", port}}));
}

// A system whose readiness request is GET <loopback server>/ready, answered
// with status_of(n) for the n-th request (from 1); no process of it ends.
inline std::shared_ptr<HttpTestServer> ready_server(StepBench& b, std::function<unsigned(std::size_t)> status_of) {
    auto server = std::make_shared<HttpTestServer>(
        [status_of, n = std::size_t{0}](const TestRequest&) mutable { return reply(status_of(++n)); });
    b.keep.push_back(server);
    b.port.answer(PortCall::readiness, boost::json::value(boost::json::object{{"url", server->url("/ready")}}));
    b.port.answer(PortCall::ended_processes, boost::json::value(boost::json::array{}));
    return server;
}

// A system ready at the first readiness request.
inline void system_ready(StepBench& b) {
    ready_server(b, [](std::size_t) { return 200u; });
}

inline unsigned short port_of(const backend::BackendServer& server) { return server.listen_endpoint().port(); }

// The scenario's backend, in this process: its counters as `stand backend`'s control port gives them.
class InProcessBackend final : public target::Backend {
public:
    explicit InProcessBackend(const backend::BackendServer& server) : server_(server) {}
    const std::string& host() const override { return host_; }
    std::uint16_t port() const override { return port_of(server_); }
    const std::string& ws_path() const override { return ws_path_; }
    const boost::json::object& info() const override { return info_; }
    target::BackendStats stats() const override {
        const auto s = server_.stats();
        return {s.accepted, s.open, s.requests, s.ws_sessions, s.ws_messages};
    }
    std::optional<double> cpu_seconds() const override { return std::nullopt; }

private:
    const backend::BackendServer& server_;
    std::string host_ = "127.0.0.1";
    std::string ws_path_ = "/ws";
    boost::json::object info_;
};

}  // namespace stand::test
