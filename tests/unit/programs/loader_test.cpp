// The loader and the plugin search on the hello example (build/plugins/hello.so).
// The loader's refusals and the fixture plugins: loader/loader_test.cpp.
#include "loader/plugin_loader.hpp"
#include "loader/plugin_search.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace stand;

TEST_CASE("loader: the hello example loads and its descriptor is copied") {
    auto p = loader::load_plugin(test::hello_plugin());
    CHECK(p->id == "hello");
    CHECK(p->name == "Hello adapter");
    CHECK(p->version == "0.1.0");
    CHECK(p->entry.abi.major == STAND_ABI_MAJOR);
    CHECK(p->entry_struct_size == sizeof(stand_plugin_entry));
    CHECK(p->interfaces == std::vector<std::string>{STAND_PROBE_ID});
    CHECK(p->implements(STAND_PROBE_ID));
    CHECK_FALSE(p->implements(STAND_PANEL_ID));
    CHECK(p->config_schema.find("\"sleeps\"") != std::string::npos);
}

TEST_CASE("plugin search: by id, by path, and a clear error for unknown ids") {
    loader::PluginSearch search({test::hello_plugin().parent_path()});
    CHECK(search.resolve("hello")->id == "hello");
    CHECK(search.resolve(test::hello_plugin().string())->id == "hello");
    try {
        search.resolve("no-such-plugin");
        FAIL("resolved a plugin that does not exist");
    } catch (const loader::LoadError& e) {
        CHECK(e.reason().find("no plugin with this id in the search path") == 0);
        CHECK(e.reason().find(test::hello_plugin().parent_path().string()) != std::string::npos);
    }
    CHECK_THROWS_AS(search.resolve("Not An Id"), loader::LoadError);
    auto scanned = search.scan();
    CHECK(scanned.refused.empty());
    CHECK(std::any_of(scanned.plugins.begin(), scanned.plugins.end(), [](auto& p) { return p->id == "hello"; }));
}

TEST_CASE("plugin search: the same file reached twice is listed once") {
    auto dir = test::hello_plugin().parent_path();
    loader::PluginSearch search({dir, dir / "." });
    auto scanned = search.scan();
    CHECK(scanned.refused.empty());
    CHECK(std::count_if(scanned.plugins.begin(), scanned.plugins.end(), [](auto& p) { return p->id == "hello"; }) == 1);
}

// Issue 18 D7: every resolve() fork-loaded every .so of the path again (300
// plugins: 10.5 s before a run started, twice). One scan per search now.
TEST_CASE("plugin search: the path is scanned once, however many plugins are resolved") {
    test::TempDir dir;
    for (int i = 0; i < 3; ++i)
        std::filesystem::copy_file(test::hello_plugin(), dir.path() / ("copy" + std::to_string(i) + ".so"));
    loader::PluginSearch search({dir.path()});
    auto first = search.scan();
    REQUIRE(first.refused.size() == 3);  // three files with one id: refused for duplicates
    std::filesystem::copy_file(test::hello_plugin(), dir.path() / "later.so");
    auto again = search.scan();
    CHECK(again.refused.size() == 3);  // the first scan's answer: the later file was not loaded
    CHECK_THROWS_AS(search.resolve("hello"), loader::LoadError);
    CHECK(search.resolve(test::hello_plugin().string()) == search.resolve(test::hello_plugin().string()));
}
