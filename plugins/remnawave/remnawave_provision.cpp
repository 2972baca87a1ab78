#include "remnawave_provision.hpp"

#include <optional>
#include <utility>

namespace stand_remnawave {

namespace json = boost::json;
using stand::cpp::Error;

namespace {

constexpr const char* kHostRemark = "stand-host";
constexpr const char* kHysteria2Name = "stand-hysteria2";

bool named(const json::value& v, const char* key, const std::string& name) {
    const auto* o = v.if_object();
    return o && o->contains(key) && o->at(key) == name.c_str();
}

std::string uuid_of(const json::value& v, const std::string& op) {
    return stand_panel_kit::string_member(v, kPanel, op, {"uuid"});
}

// The credential a user's links carry on an inbound of this type.
const char* credential_field(const std::string& inbound_type) {
    if (inbound_type == "shadowsocks") return "ssPassword";
    if (inbound_type == "vless") return "vlessUuid";
    if (inbound_type == "trojan") return "trojanPassword";
    // resolve-proxy-config.service.ts resolveHysteria: auth = the vlessUuid
    // (with a host's vlessRouteId in it; the adapter's hosts have none).
    if (inbound_type == "hysteria") return "vlessUuid";
    return nullptr;
}

// The backend accepts duplicate remarks: after creating, the first host with
// the remark (list order, viewPosition) stays and any later one is deleted,
// so two bootstraps at once still leave one link per user. `host` is the
// create body without the remark.
void ensure_host(Api& api, const char* remark, json::object host) {
    auto ours = [&] {
        std::vector<std::string> out;
        for (const auto& h : api.hosts())
            if (named(h, "remark", remark)) out.push_back(uuid_of(h, "list hosts"));
        return out;
    };
    auto found = ours();
    if (found.empty()) {
        host["remark"] = remark;
        api.create_host(host);
        found = ours();
    }
    for (std::size_t i = 1; i < found.size(); ++i) api.delete_host(found[i]);
}

std::optional<std::pair<std::string, std::string>> find_profile(Api& api) {
    for (const auto& p : api.config_profiles()) {
        if (!named(p, "name", kHysteria2Name)) continue;
        const auto& inbounds = stand_panel_kit::member(p, kPanel, "list config profiles", {"inbounds"});
        if (inbounds.is_array())
            for (const auto& in : inbounds.as_array())
                if (named(in, "tag", kHysteria2Name))
                    return std::pair{uuid_of(p, "list config profiles"), uuid_of(in, "list config profiles")};
    }
    return std::nullopt;
}

// {profile uuid, inbound uuid}: made when missing; when two bootstraps race,
// the second create is refused (409) and the list has the first's.
std::pair<std::string, std::string> ensure_profile(Api& api, const Hysteria2Inbound& in) {
    if (auto found = find_profile(api)) return *found;
    const json::object config{
        {"log", {{"loglevel", "warning"}}},
        {"inbounds", json::array{stand_panel_kit::xray_hysteria2_inbound(kHysteria2Name, in.port, in.cert, in.congestion)}},
        // Xray's freedom blocks private targets of a hysteria inbound's
        // connections (its default final rule): loopback, where stand's sink is, is let through.
        {"outbounds", json::array{json::object{{"tag", "DIRECT"},
                                               {"protocol", "freedom"},
                                               {"settings", {{"finalRules", json::array{json::object{
                                                                 {"action", "allow"},
                                                                 {"ip", json::array{"127.0.0.0/8", "::1/128"}}}}}}}},
                                  json::object{{"tag", "BLOCK"}, {"protocol", "blackhole"}}}},
        {"routing", {{"rules", json::array{}}}}};
    api.create_config_profile(kHysteria2Name, config);
    if (auto found = find_profile(api)) return *found;
    throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": create config profile: no profile " + kHysteria2Name +
                                          " with inbound " + kHysteria2Name + " afterwards");
}

std::optional<std::string> find_squad(Api& api, const std::string& name) {
    for (const auto& s : api.internal_squads())
        if (named(s, "name", name)) return uuid_of(s, "list squads");
    return std::nullopt;
}

std::string ensure_squad(Api& api, const std::string& inbound_uuid) {
    if (auto found = find_squad(api, kHysteria2Name)) return *found;
    api.create_internal_squad(kHysteria2Name, inbound_uuid);
    if (auto found = find_squad(api, kHysteria2Name)) return *found;
    throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": create squad: no squad " + kHysteria2Name + " afterwards");
}

const char* host_address(const NodeSite& node) {
    return node.address.empty() ? kNodeAddress : node.address.c_str();
}

}  // namespace

Placement place_on_default_squad(Api& api, const NodeSite& node) {
    const std::string op = "list squads";
    const auto squads = api.internal_squads();
    if (squads.empty()) throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": no internal squad");
    // The default squad (made by a migration, with a random uuid) comes first.
    const auto& squad = squads.front();
    const auto& inbounds = stand_panel_kit::member(squad, kPanel, op, {"inbounds"});
    if (!inbounds.is_array() || inbounds.as_array().empty())
        throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": the default squad has no inbound");
    const auto& inbound = inbounds.as_array().front();
    const std::string profile = stand_panel_kit::string_member(inbound, kPanel, op, {"profileUuid"});
    std::int64_t port = 1234;
    if (!node.address.empty()) {
        node.enrol(profile, uuid_of(inbound, op));
        if (const auto* p = inbound.as_object().if_contains("port"); p && p->is_int64()) port = p->as_int64();
    }
    ensure_host(api, kHostRemark,
                {{"inbound", {{"configProfileUuid", profile}, {"configProfileInboundUuid", uuid_of(inbound, op)}}},
                 {"address", host_address(node)},
                 {"port", port}});
    const auto* type = inbound.as_object().if_contains("type");
    const char* field = type && type->is_string() ? credential_field(std::string(type->as_string())) : nullptr;
    return {uuid_of(squad, op), field ? field : ""};
}

Placement place_on_hysteria2(Api& api, const Hysteria2Inbound& in, const NodeSite& node) {
    const auto [profile, inbound] = ensure_profile(api, in);
    const std::string squad = ensure_squad(api, inbound);
    if (!node.address.empty()) node.enrol(profile, inbound);
    // The backend puts a host's pinnedPeerCertSha256 and sni into the links, never an insecure flag.
    ensure_host(api, kHysteria2Name,
                {{"inbound", {{"configProfileUuid", profile}, {"configProfileInboundUuid", inbound}}},
                 {"address", host_address(node)},
                 {"port", in.port},
                 {"sni", stand_panel_kit::kHysteria2ServerName},
                 {"pinnedPeerCertSha256", in.cert.pin_sha256}});
    return {squad, credential_field("hysteria")};
}

}  // namespace stand_remnawave
