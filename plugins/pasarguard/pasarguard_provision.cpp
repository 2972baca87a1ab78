#include "pasarguard_provision.hpp"

#include <fstream>
#include <regex>

namespace stand_pasarguard {

namespace json = boost::json;

namespace {

constexpr const char* kInboundTag = "Shadowsocks TCP";
constexpr const char* kGroup = "everyone";
constexpr const char* kHostRemark = "stand-host";
constexpr const char* kHysteria2Name = "stand-hysteria2";  // the core config, its inbound's tag, the group, the host

long long ensure_group(Api& api, const std::string& name, const std::string& inbound_tag) {
    if (auto id = api.find_group(name)) return *id;
    return api.create_group(name, inbound_tag);
}

// `host` is the create body without the remark.
void ensure_host(Api& api, const std::string& remark, json::object host) {
    if (api.has_host(remark)) return;
    host["remark"] = remark;
    api.create_host(host);
}

}  // namespace

std::string parse_temp_key(const std::string& output) {
    std::smatch m;
    if (!std::regex_search(output, m, std::regex(R"(Temp key: (\S+))")))
        throw stand::cpp::Error(STAND_E_BAD_RESPONSE, "pasarguard: generate-temp-key printed no 'Temp key:' line: " +
                                                          stand_panel_kit::excerpt(output));
    return m[1].str();
}

void ensure_owner(Api& api, const std::filesystem::path& marker, const std::function<std::string()>& temp_key) {
    if (!std::filesystem::exists(marker)) {
        api.set_up_owner(temp_key());
        std::ofstream(marker) << "created\n";
    }
    api.sign_in();
}

Placement place_on_shadowsocks(Api& api, const std::string& address) {
    const auto core = api.find_core_with_inbound(kInboundTag);
    if (!core)
        throw stand::cpp::Error(STAND_E_BAD_RESPONSE, std::string("pasarguard: bootstrap: no core config has the inbound '") +
                                                          kInboundTag + "' (the panel's default core config)");
    const long long group = ensure_group(api, kGroup, kInboundTag);
    ensure_host(api, kHostRemark,
                {{"address", json::array{address.c_str()}}, {"inbound_tag", kInboundTag}, {"port", 1080}, {"priority", 1}});
    return {group, *core};
}

Placement place_on_hysteria2(Api& api, const Hysteria2Inbound& in, const std::string& address) {
    auto core = api.find_core(kHysteria2Name);
    if (!core) {
        // The default core config stays as it is.
        const json::object config{
            {"log", {{"loglevel", "warning"}}},
            {"inbounds", json::array{stand_panel_kit::xray_hysteria2_inbound(kHysteria2Name, in.port, in.cert, in.congestion, in.listen)}},
            {"outbounds", json::array{json::object{{"protocol", "freedom"}, {"tag", "DIRECT"}}}}};
        core = api.create_core(kHysteria2Name, config);
    }
    const long long group = ensure_group(api, kHysteria2Name, kHysteria2Name);
    ensure_host(api, kHysteria2Name,
                {{"address", json::array{address.c_str()}},
                 {"inbound_tag", kHysteria2Name},
                 {"port", in.port},
                 {"sni", json::array{stand_panel_kit::kHysteria2ServerName}},
                 {"pinned_peer_cert_sha256", in.cert.pin_sha256},
                 {"priority", 1}});
    return {group, *core};
}

}  // namespace stand_pasarguard
