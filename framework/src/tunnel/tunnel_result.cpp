#include "tunnel/tunnel_result.hpp"

#include "load/load_result.hpp"

#include <boost/json/value_from.hpp>

namespace stand::tunnel {

boost::json::object TunnelResult::to_json() const {
    boost::json::object o;
    o["schema"] = "stand.tunnel/1";
    o["server"] = server;
    o["sink"] = sink;
    o["streams"] = streams;
    o["duration_s"] = duration_s;
    o["probe_interval_ms"] = probe_interval_ms;
    o["congestion_control"] = congestion_control;
    o["obfs"] = obfs;
    o["rx_mbit"] = rx_mbit;
    o["handshake_ms"] = handshake_ms;
    o["auth_ms"] = auth_ms;
    o["server_udp"] = server_udp;
    o["server_cc_rx"] = server_cc_rx;
    o["window_s"] = window_s;
    o["bytes"] = bytes;
    o["mbit_mean"] = mbit_mean;
    o["mbit_per_second"] = boost::json::value_from(mbit_per_second);
    o["below_mbit"] = below_mbit;
    o["seconds_below"] = seconds_below;
    boost::json::object probes;
    probes["sent"] = probes_sent;
    probes["ok"] = probes_ok;
    probes["failed"] = probes_failed;
    probes["latency_us"] = load::summarize_us(probe_latency);
    o["probes"] = std::move(probes);
    o["streams_opened"] = streams_opened;
    o["streams_dropped"] = streams_dropped;
    o["connection_losses"] = connection_losses;
    o["reconnects"] = reconnects;
    o["reconnect_gaps_ms"] = boost::json::value_from(reconnect_gaps_ms);
    o["loss_reasons"] = boost::json::value_from(loss_reasons);
    o["cpu_s"] = cpu_s;
    o["mbit_per_cpu_s"] = mbit_per_cpu_s;
    o["udp"] = udp.to_json();
    o["warnings"] = boost::json::value_from(warnings);
    return o;
}

}  // namespace stand::tunnel
