#include "compat/panel_target.hpp"
#include "scaffold/template_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace stand;

namespace {

std::string skeleton(std::string_view path) {
    const auto& files = scaffold::template_files();
    const auto it = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.path == path; });
    REQUIRE_MESSAGE(it != files.end(), path);
    return std::string(it->text);
}

compat::PanelTarget load(const test::TempDir& dir, const std::string& text) {
    const auto file = dir.path() / "target.json";
    std::ofstream(file) << text;
    return compat::load_panel_target(file);
}

std::string load_error(const test::TempDir& dir, const std::string& text) {
    try {
        load(dir, text);
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        return what.substr(what.find(": ") + 2);
    }
    return "(loaded)";
}

}  // namespace

// The panel skeleton's README table and target file name every key of the
// table the parser reads by (and `stand compat --help` prints).
TEST_CASE("panel target: the skeleton's README and target file list every key with its type and default") {
    const auto readme = skeleton("panel/README.md");
    const auto target = skeleton("panel/compat/target.json.in");
    for (const auto& key : compat::panel_target_keys()) {
        const std::string row = "| `" + std::string(key.name) + "` | " + key.type() + " | " +
                                std::string(key.default_text) + " |";
        CHECK_MESSAGE(readme.find(row) != std::string::npos, "panel/README.md lacks the row " << row);
        const std::string named = "\"" + std::string(key.name) + "\"";
        CHECK_MESSAGE(target.find(named) != std::string::npos, "panel/compat/target.json.in does not name " << named);
    }
}

TEST_CASE("panel target: keys are read by the table, with comments, defaults and typed errors") {
    test::TempDir dir;
    const auto t = load(dir, "// a comment line\n{\"config\": {\"port\": 1}, \"users\": 7,\n"
                             " \"unserved_links\": \"the core runs on nodes\",}");
    CHECK(t.config.at("port") == 1);
    CHECK(t.users == 7);
    CHECK(t.ready_timeout == std::chrono::seconds(60));
    CHECK(t.unserved_links == "the core runs on nodes");
    CHECK(t.wrong_credentials.empty());

    CHECK(load_error(dir, R"({"config": {}, "users": 1})") == "$.users: expected an integer 2..1000");
    CHECK(load_error(dir, R"({"config": []})") == "$.config: expected an object");
    CHECK(load_error(dir, R"({"config": {}, "unchecked_listeners": ""})") ==
          "$.unchecked_listeners: expected a non-empty string");
    CHECK(load_error(dir, R"({"users": 3})").find("$.config: missing: the plugin config") == 0);
    CHECK(load_error(dir, R"({"config": {}, "user": 3})") ==
          "$.user: unknown key (expected config, wrong_credentials, users, ready_timeout_s, check_timeout_s, "
          "revoke_within_s, unserved_links, unchecked_listeners; see stand compat --help)");
}
