#include <stand/cpp/config.hpp>
#include <stand/cpp/error.hpp>
#include <stand/cpp/executable.hpp>

#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>

using namespace stand::cpp;

TEST_CASE("write_error truncates at a UTF-8 boundary and always terminates") {
    char buf[6];
    stand_error err{sizeof(stand_error), sizeof(buf), buf};
    write_error(&err, "abc\xC3\xA9xyz");  // "abcéxyz": é is 2 bytes at offsets 3-4
    CHECK(std::strcmp(buf, "abc\xC3\xA9") == 0);
    char small[5];
    stand_error err2{sizeof(stand_error), sizeof(small), small};
    write_error(&err2, "abc\xC3\xA9xyz");  // room for 4 bytes: must not split é
    CHECK(std::strcmp(small, "abc") == 0);
    write_error(nullptr, "ignored");
    stand_error none{sizeof(stand_error), 0, nullptr};
    write_error(&none, "ignored");
}

TEST_CASE("guarded maps exceptions to codes with their messages") {
    char buf[64] = {0};
    stand_error err{sizeof(stand_error), sizeof(buf), buf};
    CHECK(guarded(&err, [] { return STAND_OK; }) == STAND_OK);
    CHECK(guarded(&err, []() -> stand_result { throw Error(STAND_E_TIMEOUT, "too slow"); }) == STAND_E_TIMEOUT);
    CHECK(std::string(buf) == "too slow");
    CHECK(guarded(&err, []() -> stand_result { throw std::runtime_error("boom"); }) == STAND_E_INTERNAL);
    CHECK(std::string(buf) == "boom");
    CHECK(guarded(&err, []() -> stand_result { throw 42; }) == STAND_E_INTERNAL);
    CHECK(std::string(buf) == "unknown C++ exception");
    // A positive code thrown as an error is still a failure.
    CHECK(guarded(&err, []() -> stand_result { throw Error(1, "odd"); }) == STAND_E_INTERNAL);
}

TEST_CASE("ConfigReader: defaults, types, ranges and unknown keys, each named") {
    const char* text = R"({"port": 8080, "name": "x", "tls": true})";
    auto cfg = parse_config(text, std::strlen(text));
    ConfigReader r(cfg);
    CHECK(r.integer("port", 1, 1, 65535) == 8080);
    CHECK(r.string("name", "") == "x");
    CHECK(r.boolean("tls", false));
    CHECK(r.string("absent", "dflt") == "dflt");
    CHECK_NOTHROW(r.finish());

    auto message = [](const char* json_text, auto&& read) {
        try {
            auto c = parse_config(json_text, std::strlen(json_text));
            ConfigReader reader(c);
            read(reader);
            reader.finish();
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(message(R"({"port": "80"})", [](ConfigReader& x) { x.integer("port", 1); }) ==
          "config.port: expected an integer");
    CHECK(message(R"({"port": 70000})", [](ConfigReader& x) { x.integer("port", 1, 1, 65535); }) ==
          "config.port: 70000 is out of range [1, 65535]");
    CHECK(message(R"({"prot": 80})", [](ConfigReader& x) { x.integer("port", 1); }) == "config.prot: unknown key");
    CHECK(message(R"([1])", [](ConfigReader&) {}) == "config must be a JSON object");
    CHECK(message(R"({"a":)", [](ConfigReader&) {}).find("config is not valid JSON") == 0);
}

TEST_CASE("resolve_executable: a relative path becomes absolute where it was written, a bare name is looked up on PATH") {
    namespace fs = std::filesystem;
    stand::test::TempDir dir;
    const fs::path bin = dir.path() / "bin";
    fs::create_directories(bin);
    std::ofstream(bin / "tool") << "#!/bin/sh\n";
    const std::string search = "/nonexistent::" + bin.string();  // an empty entry is the working directory

    CHECK_FALSE(find_on_path("tool", search).has_value());  // not executable yet
    fs::permissions(bin / "tool", fs::perms::owner_exec, fs::perm_options::add);
    CHECK(find_on_path("tool", search) == bin / "tool");
    CHECK_FALSE(find_on_path("absent", search).has_value());
    CHECK_FALSE(find_on_path("bin", dir.path().string()).has_value());  // a directory is no program

    CHECK(resolve_executable("bin/tool", dir.path()) == bin / "tool");
    CHECK(resolve_executable("./bin/../bin/tool", dir.path()) == bin / "tool");
    CHECK(resolve_executable("bin/absent", dir.path()) == bin / "absent");  // missing: still absolute, for the message
    CHECK(resolve_executable("/abs/olute") == fs::path("/abs/olute"));
    CHECK(resolve_executable("rel/tool") == fs::current_path() / "rel/tool");  // the process's working directory
    CHECK(resolve_executable("stand-no-such-program-on-path") == fs::path("stand-no-such-program-on-path"));
    const fs::path sh = resolve_executable("sh");
    CHECK(sh.is_absolute());
    CHECK(is_executable_file(sh));
    CHECK(resolve_executable("").empty());
}
