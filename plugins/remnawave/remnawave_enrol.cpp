#include "remnawave_enrol.hpp"

#include <chrono>
#include <optional>
#include <thread>

namespace stand_remnawave {

namespace json = boost::json;
using stand::cpp::Error;

namespace {

std::optional<json::object> find_node(Api& api) {
    for (const auto& n : api.nodes())
        if (const auto* o = n.if_object(); o && o->contains("name") && o->at("name") == kNodeName) return *o;
    return std::nullopt;
}

bool connected(const json::object& node) {
    const auto* c = node.if_contains("isConnected");
    return c && c->is_bool() && c->as_bool();
}

std::string status_message(const json::object& node) {
    const auto* m = node.if_contains("lastStatusMessage");
    return m && m->is_string() ? std::string(m->as_string()) : "none";
}

}  // namespace

void register_node(Api& api, const NodeRegistration& node, const std::string& profile, const std::string& inbound) {
    if (!find_node(api))
        api.create_node({{"name", kNodeName},
                         {"address", node.address},
                         {"port", node.port},
                         {"configProfile", {{"activeConfigProfileUuid", profile},
                                            {"activeInbounds", json::array{inbound.c_str()}}}}});
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(node.ready_timeout_s);
    for (;;) {
        const auto found = find_node(api);
        if (!found)
            throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": create node: no node " + kNodeName + " afterwards");
        if (connected(*found)) return;
        if (std::chrono::steady_clock::now() >= end)
            throw Error(STAND_E_TIMEOUT, std::string(kPanel) + ": the node " + node.address + ":" +
                                             std::to_string(node.port) + " is not connected after " +
                                             std::to_string(node.ready_timeout_s) + " s (the backend's last status: " +
                                             status_message(*found) + "); see " + node.log);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
}

}  // namespace stand_remnawave
