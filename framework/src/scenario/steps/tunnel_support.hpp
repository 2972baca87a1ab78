// What the tunnel steps (tunnel_throughput, many_clients) need besides the
// runner: the Hysteria 2 link of a created user (fetched from its
// subscription) and the metrics of a result.
#pragma once

#include "host/http/http_service.hpp"
#include "hysteria/hysteria_link.hpp"
#include "tunnel/many_clients.hpp"
#include "tunnel/tunnel_result.hpp"

#include <boost/json/object.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace stand::scenario {

// A subscription that answered but holds no hysteria2:// link: the panel
// serves this user no Hysteria 2 (a step with "if_elsewhere": "skip" records
// it as not measured).
struct NoHysteriaLink : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The first hysteria2:// (or hy2://) link in the subscription {method, url,
// headers} of `who`. Throws NoHysteriaLink, or std::runtime_error naming the
// user, the URL and what was wrong (status, body).
hysteria::HysteriaLink hysteria_link_of(host::HttpService& http, const boost::json::object& subscription,
                                        const std::string& who);

using PutMetric = std::function<void(const std::string& key, double value)>;

// <name>.gbit_s, .probe_p95_ms, .streams_dropped, .reconnects, ... (the
// box-window metrics are the runner's).
void put_tunnel_metrics(const PutMetric& put, const std::string& name, const tunnel::TunnelResult& r);
void put_many_clients_metrics(const PutMetric& put, const std::string& name, const tunnel::ManyClientsResult& r);

// What failed in a many_clients run, naming only what did: "5 of 1200
// requests failed (20 of 20 clients connected)", "3 of 20 clients failed to
// connect", "2 connections lost after authenticating"; "" when nothing did.
std::string many_clients_failures(const tunnel::ManyClientsResult& r);

}  // namespace stand::scenario
