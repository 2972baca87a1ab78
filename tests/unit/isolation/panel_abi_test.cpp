// stand.panel/1's ABI 1.3 members (set_user_enabled, set_user_quota,
// user_traffic) and 1.4's dashboard_requests read by the host only when a plugin's table has them: a
// plugin built against ABI 1.2 (tests/fixtures/panel12_plugin.c, poison
// after its 48-byte table) answers STAND_E_UNSUPPORTED naming the member,
// and its 1.2 calls work as before.
#include "isolation/interface_calls.hpp"
#include "loader/plugin_loader.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand;
namespace json = boost::json;

TEST_CASE("panel ABI: a 1.2 plugin's table is read up to its struct_size, the 1.3 and 1.4 calls answer unsupported") {
    auto plugin = loader::load_plugin(test::fixture_plugin("fixture-panel12"));
    REQUIRE(plugin->entry.abi.minor == 2);
    stand_instance* instance = nullptr;
    char message[256] = {0};
    stand_error err{sizeof(stand_error), sizeof(message), message};
    REQUIRE(plugin->entry.create(nullptr, "{}", 2, &instance, &err) == STAND_OK);
    const auto call = [&](const std::string& method, const json::object& args) {
        return isolation::call_interface(*plugin, instance, method, args);
    };
    CHECK(call("panel.bootstrap", {}).code == STAND_OK);
    const auto created = call("panel.create_user", {{"name", "u"}});
    CHECK(created.code == STAND_OK);
    CHECK(json::parse(created.output).at("id") == "1");
    for (const auto& [method, args] :
         {std::pair<std::string, json::object>{"panel.set_user_enabled", {{"id", "1"}, {"enabled", false}}},
          {"panel.set_user_quota", {{"id", "1"}, {"quota_bytes", 1}}},
          {"panel.user_traffic", {{"id", "1"}}}}) {
        CAPTURE(method);
        const auto r = call(method, args);
        CHECK(r.code == STAND_E_UNSUPPORTED);
        CHECK(r.error.find("the plugin has no " + method.substr(6) + " (its stand.panel/1 table predates ABI 1.3") == 0);
    }
    const auto dashboard = call("panel.dashboard_requests", {});
    CHECK(dashboard.code == STAND_E_UNSUPPORTED);
    CHECK(dashboard.error.find("the plugin has no dashboard_requests (its stand.panel/1 table predates ABI 1.4") == 0);
    CHECK(call("panel.delete_user", {{"id", "1"}}).code == STAND_OK);
    CHECK(call("panel.delete_user", {{"id", "1"}}).code == STAND_E_NOT_FOUND);
    plugin->entry.destroy(instance);
}

TEST_CASE("panel ABI: the 1.3 calls refuse missing or mistyped arguments by name") {
    auto plugin = loader::load_plugin(test::fixture_plugin("fixture-panel12"));
    stand_instance* instance = nullptr;
    REQUIRE(plugin->entry.create(nullptr, "{}", 2, &instance, nullptr) == STAND_OK);
    CHECK_THROWS_WITH(isolation::call_interface(*plugin, instance, "panel.set_user_enabled", {{"id", "1"}}),
                      "argument 'enabled' (true or false) is required");
    CHECK_THROWS_WITH(isolation::call_interface(*plugin, instance, "panel.set_user_quota", {{"id", "1"}, {"quota_bytes", -1}}),
                      "argument 'quota_bytes' (a count >= 0) is required");
    plugin->entry.destroy(instance);
}
