// What the tunnel steps' tests (tunnel_throughput, many_clients,
// revoke_under_traffic, traffic_accounting) share. No Hysteria 2 server runs
// in-process (the QUIC code is a client only; the server is
// tests/hysteria2-server, a Go program), so the users' links name a loopback
// UDP port nothing listens on and every handshake is refused.
#pragma once

#include "step_bench.hpp"
#include "../http_test_server.hpp"

#include <boost/asio/ip/udp.hpp>
#include <boost/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace stand::test {

// A loopback UDP port nothing listens on: a datagram to it is refused (ICMP).
inline std::uint16_t closed_udp_port() {
    boost::asio::io_context io;
    boost::asio::ip::udp::socket s(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return s.local_endpoint().port();
}

// What a tunnel's first connection to closed_udp_port() fails with.
inline std::string refused(std::uint16_t udp) {
    return "nobody listens on UDP 127.0.0.1:" + std::to_string(udp) + " (ICMP port unreachable)";
}

// The users' subscriptions, served at /sub/<name>: by default one
// hysteria2:// link to `udp` with the auth auth-<name>; `answer` changes that.
struct Subscriptions {
    std::uint16_t udp = closed_udp_port();
    std::mutex mutex;
    std::function<TestReply(const std::string& user)> answer = [this](const std::string& user) {
        return reply(200, link_of(user) + "\n");
    };
    HttpTestServer http{[this](const TestRequest& r) {
        const std::string target(r.target());
        std::lock_guard lock(mutex);
        return answer(target.substr(target.rfind('/') + 1));
    }};

    std::string link_of(const std::string& user) const {
        return "hysteria2://auth-" + user + "@127.0.0.1:" + std::to_string(udp) + "/?insecure=1";
    }
    void answer_with(std::function<TestReply(const std::string&)> a) {
        std::lock_guard lock(mutex);
        answer = std::move(a);
    }
    std::vector<std::string> targets() const {
        std::vector<std::string> out;
        for (const auto& r : http.requests()) out.emplace_back(r.target());
        return out;
    }
};

// A panel whose create_user answers id-<name> and a subscription on the
// returned Subscriptions ({method, url} and `subscription_extra`'s keys).
inline std::shared_ptr<Subscriptions> serve_users(StepBench& b, boost::json::object subscription_extra = {}) {
    auto subs = std::make_shared<Subscriptions>();
    b.keep.push_back(subs);
    b.port.answer(PortCall::create_user, [raw = subs.get(), subscription_extra](const boost::json::object& args) {
        const std::string name(args.at("name").as_string());
        boost::json::object subscription{{"method", "GET"}, {"url", raw->http.url("/sub/" + name)}};
        for (const auto& [k, v] : subscription_extra) subscription[k] = v;
        return reply_ok(boost::json::object{{"id", "id-" + name}, {"subscription", subscription}});
    });
    return subs;
}

}  // namespace stand::test
