// The loader on files it refuses and on the fixture plugins of
// tests/fixtures (a later 1.x minor, a plain C plugin). The hello example
// and the plugin search over build/plugins: programs/loader_test.cpp.
#include "loader/plugin_loader.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

using namespace stand;

TEST_CASE("loader: refusals name the file and the reason") {
    test::TempDir dir;
    auto reason_for = [](const std::filesystem::path& file) {
        try {
            loader::load_plugin(file);
        } catch (const loader::LoadError& e) {
            CHECK(std::string(e.what()).find(file.string()) == 0);
            return e.reason();
        }
        return std::string("loaded");
    };
    CHECK(reason_for(dir.path() / "missing.so") == "no such file");
    CHECK(reason_for(dir.path()) == "not a regular file");
    std::ofstream(dir.path() / "text.so") << "not an ELF file\n";
    CHECK(reason_for(dir.path() / "text.so") == "not an ELF shared library (no \\x7fELF header)");
}

TEST_CASE("loader: a plugin built for a later 1.x minor with longer structs loads (tail ignored)") {
    auto p = loader::load_plugin(test::fixture_plugin("fixture-future"));
    CHECK(p->id == "fixture-future");
    CHECK(p->entry.abi.minor == 7);
    CHECK(p->entry_struct_size > sizeof(stand_plugin_entry));
    CHECK(p->descriptor_struct_size > sizeof(stand_plugin_descriptor));
    CHECK(p->config_schema.empty());
    CHECK(p->interfaces.empty());
}

TEST_CASE("loader: a plain C plugin with a third-party interface loads") {
    auto p = loader::load_plugin(test::fixture_plugin("fixture-noop"));
    CHECK(p->interfaces == std::vector<std::string>{"org.stand.test.noop/1"});
}
