#include "quic/udp_io_summary.hpp"

#include <boost/json/array.hpp>

#include <algorithm>

namespace stand::quic {
namespace {

void add_distinct(std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::string joined(const std::vector<std::string>& list) {
    std::string out;
    for (const auto& item : list) out += (out.empty() ? "" : " and ") + item;
    return out;
}

std::string ecn_text(std::uint64_t with, std::uint64_t of) {
    if (of == 0) return "none";
    if (with == of) return "on";
    if (with == 0) return "off";
    return "on for " + std::to_string(with) + " of " + std::to_string(of) + " connections";
}

// "; 2 of the datagrams in were not QUIC packets (empty or too short), dropped"; "" for none.
std::string not_quic_text(std::uint64_t dropped) {
    if (dropped == 0) return "";
    return "; " + std::to_string(dropped) + " of the datagrams in were not QUIC packets (empty or too short), dropped";
}

}  // namespace

void UdpIoSummary::add(const QuicConnection& connection) { add(connection.udp_io(), connection.counters()); }

void UdpIoSummary::add(const UdpIoFeatures& features, const QuicCounters& c) {
    UdpIoSummary one;
    one.batching = udp_batching_name(features.requested);
    one.send_paths = {features.send_path()};
    one.receive_paths = {features.receive_path()};
    one.connections = 1;
    one.connections_with_ecn = features.ecn ? 1 : 0;
    one.receive_buffer = features.receive_buffer;
    for (const auto& f : features.fallbacks) add_distinct(one.fallbacks, f);
    one.counters = c;
    merge(one);
}

void UdpIoSummary::merge(const UdpIoSummary& other) {
    if (other.connections == 0) return;
    if (batching.empty()) batching = other.batching;
    for (const auto& p : other.send_paths) add_distinct(send_paths, p);
    for (const auto& p : other.receive_paths) add_distinct(receive_paths, p);
    connections += other.connections;
    connections_with_ecn += other.connections_with_ecn;
    if (receive_buffer == 0 || (other.receive_buffer > 0 && other.receive_buffer < receive_buffer))
        receive_buffer = other.receive_buffer;
    for (const auto& f : other.fallbacks) add_distinct(fallbacks, f);
    counters.packets_sent += other.counters.packets_sent;
    counters.packets_received += other.counters.packets_received;
    counters.bytes_sent += other.counters.bytes_sent;
    counters.bytes_received += other.counters.bytes_received;
    counters.packets_dropped += other.counters.packets_dropped;
}

boost::json::object UdpIoSummary::to_json() const {
    boost::json::object o;
    o["batching"] = batching;
    o["send"] = joined(send_paths);
    o["receive"] = joined(receive_paths);
    o["ecn"] = ecn_text(connections_with_ecn, connections);
    o["receive_buffer"] = receive_buffer;
    boost::json::array f;
    for (const auto& text : fallbacks) f.emplace_back(text);
    o["fallbacks"] = std::move(f);
    o["connections"] = connections;
    o["datagrams_sent"] = counters.packets_sent;
    o["datagrams_received"] = counters.packets_received;
    o["bytes_sent"] = counters.bytes_sent;
    o["bytes_received"] = counters.bytes_received;
    o["datagrams_not_quic"] = counters.packets_dropped;
    return o;
}

std::vector<std::string> UdpIoSummary::describe() const {
    std::vector<std::string> lines;
    if (connections == 0) return lines;
    lines.push_back("UDP: send " + joined(send_paths) + ", receive " + joined(receive_paths) + ", ECN " +
                    ecn_text(connections_with_ecn, connections) + " (--udp-batching " + batching + "); " +
                    std::to_string(counters.packets_received) + " datagrams in, " +
                    std::to_string(counters.packets_sent) + " out" + not_quic_text(counters.packets_dropped));
    for (const auto& f : fallbacks) lines.push_back("UDP fallback: " + f);
    return lines;
}

}  // namespace stand::quic
