#include "loader/interface_catalog.hpp"

#include <stand/stand.h>

#include <cstring>
#include <string>

namespace stand::loader {
namespace {

#define STAND_MEMBER(type, m) RequiredMember{#m, offsetof(type, m)}
#define STAND_V1_SIZE(type, last) static_cast<std::uint32_t>(offsetof(type, last) + sizeof(((type*)0)->last))

const std::vector<InterfaceSpec>& catalog() {
    static const std::vector<InterfaceSpec> specs = {
        {STAND_LIFECYCLE_ID, STAND_V1_SIZE(stand_lifecycle, facts),
         {STAND_MEMBER(stand_lifecycle, install), STAND_MEMBER(stand_lifecycle, start),
          STAND_MEMBER(stand_lifecycle, stop), STAND_MEMBER(stand_lifecycle, restart),
          STAND_MEMBER(stand_lifecycle, wipe), STAND_MEMBER(stand_lifecycle, readiness),
          STAND_MEMBER(stand_lifecycle, facts)}},
        {STAND_PANEL_ID, STAND_V1_SIZE(stand_panel, subscription_request),
         {STAND_MEMBER(stand_panel, bootstrap), STAND_MEMBER(stand_panel, create_user),
          STAND_MEMBER(stand_panel, delete_user), STAND_MEMBER(stand_panel, admin_call),
          STAND_MEMBER(stand_panel, subscription_request)}},
        {STAND_PROXY_ID, STAND_V1_SIZE(stand_proxy, effective_defaults),
         {STAND_MEMBER(stand_proxy, configure), STAND_MEMBER(stand_proxy, endpoint),
          STAND_MEMBER(stand_proxy, effective_defaults)}},
        {STAND_PROBE_ID, STAND_V1_SIZE(stand_probe, cleanup),
         {STAND_MEMBER(stand_probe, list_jobs), STAND_MEMBER(stand_probe, prepare),
          STAND_MEMBER(stand_probe, run), STAND_MEMBER(stand_probe, cleanup)}},
    };
    return specs;
}

}  // namespace

const InterfaceSpec* find_interface_spec(std::string_view id) {
    for (const auto& spec : catalog())
        if (id == spec.id) return &spec;
    return nullptr;
}

std::string check_interface_table(std::string_view id, const void* table) {
    if (table == nullptr) return "get_interface(\"" + std::string(id) + "\") returned NULL although the descriptor declares it";
    std::uint32_t size = 0;
    std::memcpy(&size, table, sizeof(size));
    const InterfaceSpec* spec = find_interface_spec(id);
    std::uint32_t need = spec ? spec->v1_size : static_cast<std::uint32_t>(sizeof(std::uint32_t) + sizeof(void*));
    if (size < need)
        return std::string(id) + " table struct_size " + std::to_string(size) + " is smaller than the v1 size " +
               std::to_string(need);
    if (spec == nullptr) return {};
    for (const auto& member : spec->required) {
        void* fn = nullptr;
        std::memcpy(&fn, static_cast<const char*>(table) + member.offset, sizeof(fn));
        if (fn == nullptr) return std::string(id) + " member " + member.name + " is NULL";
    }
    return {};
}

}  // namespace stand::loader
