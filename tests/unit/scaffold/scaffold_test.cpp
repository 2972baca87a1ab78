#include "scaffold/adapter_project.hpp"
#include "scaffold/template_files.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace stand::scaffold;

TEST_CASE("scaffold: the adapter's name gives the id, the identifier and the C++ class") {
    const auto n = adapter_names("my-panel.v2");
    CHECK(n.name == "my-panel.v2");
    CHECK(n.ident == "my_panel_v2");
    CHECK(n.class_name == "MyPanelV2");
    CHECK(adapter_names("x").class_name == "X");
    for (const char* bad : {"", "9lives", "My", "a b", "-x", "a/b"}) CHECK_THROWS_AS(adapter_names(bad), ScaffoldError);
    CHECK_THROWS_AS(adapter_names(std::string(65, 'a')), ScaffoldError);
}

TEST_CASE("scaffold: placeholders are filled, an unknown one is an error naming the file") {
    const auto n = adapter_names("my-probe");
    CHECK(fill_placeholders("%%Class%% %%name%% %%ident%% 100%", n, "f") == "MyProbe my-probe my_probe 100%");
    try {
        fill_placeholders("a %%nmae%% b", n, "sdk/templates/probe/x.cpp");
        FAIL("no error");
    } catch (const std::logic_error& e) {
        CHECK(std::string(e.what()).find("sdk/templates/probe/x.cpp: unknown placeholder %%nmae%%") == 0);
    }
}

TEST_CASE("scaffold: every embedded skeleton fills, and each interface has a CMakeLists.txt, a README and a source") {
    const auto n = adapter_names("t-adapter");
    std::set<std::string> seen;
    for (const auto& t : template_files()) {
        const auto text = fill_placeholders(std::string(t.text), n, std::string(t.path));
        CHECK_MESSAGE(text.find("%%") == std::string::npos, t.path);
        seen.insert(std::string(t.path));
    }
    for (const auto& i : adapter_interfaces())
        for (const char* f : {"/CMakeLists.txt", "/README.md", "/src/plugin.cpp"}) {
            const std::string path = i + f;
            CHECK_MESSAGE(seen.count(path) == 1, path);
        }
}

TEST_CASE("scaffold: a project is written into an absent or empty folder, never over files") {
    const fs::path dir = fs::temp_directory_path() / ("stand-scaffold-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const auto written = write_adapter_project("t-probe", "probe", dir / "p");
    CHECK(std::count(written.begin(), written.end(), fs::path("src/plugin.cpp")) == 1);
    std::ifstream cmake(dir / "p" / "CMakeLists.txt");
    std::string text((std::istreambuf_iterator<char>(cmake)), {});
    CHECK(text.find("COMPONENTS probe_kit") != std::string::npos);
    CHECK(text.find("ID t-probe") != std::string::npos);

    CHECK_THROWS_WITH_AS(write_adapter_project("t-probe", "probe", dir / "p"),
                         doctest::Contains("exists and is not empty"), ScaffoldError);
    CHECK_THROWS_WITH_AS(write_adapter_project("t-probe", "vpn", dir / "q"), doctest::Contains("unknown interface 'vpn'"),
                         ScaffoldError);
    CHECK_FALSE(fs::exists(dir / "q"));
    fs::create_directories(dir / "empty");
    CHECK_NOTHROW(write_adapter_project("t-proxy", "proxy", dir / "empty"));
    fs::remove_all(dir);
}

TEST_CASE("scaffold: names of the SDK's C types, and of classes the skeletons name qualified, are usable") {
    const fs::path dir = fs::temp_directory_path() / ("stand-scaffold-sdk-names-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    // stand_proxy, stand_result_name(), ... are the C ABI's; stand::cpp::Probe and Error the C++ helpers'.
    for (const char* name : {"proxy", "panel", "lifecycle", "error", "sink", "result", "abi_version", "probe",
                             "instance", "result_name", "plugin_entry_v1"})
        for (const auto& interface : adapter_interfaces()) {
            const fs::path project = dir / (interface + "-" + name);
            INFO(interface << " " << name);
            REQUIRE_NOTHROW(write_adapter_project(name, interface, project));
            for (const auto& f : fs::recursive_directory_iterator(project)) {
                if (!f.is_regular_file()) continue;
                std::ifstream in(f.path());
                const std::string text((std::istreambuf_iterator<char>(in)), {});
                CHECK_MESSAGE(text.find("namespace stand_") == std::string::npos, f.path());
            }
        }
    // A class the skeleton names unqualified is still refused.
    CHECK_THROWS_WITH_AS(write_adapter_project("config-error", "panel", dir / "c"),
                         doctest::Contains("its class ConfigError would hide"), ScaffoldError);
    fs::remove_all(dir);
}
