// Paths of build products the tests use.
#pragma once

#include <filesystem>

namespace stand::test {

inline std::filesystem::path build_dir() { return STAND_TEST_BINARY_DIR; }
inline std::filesystem::path hello_plugin() { return build_dir() / "plugins" / "hello.so"; }
inline std::filesystem::path fixture_plugin(const char* name) {
    return build_dir() / "tests" / "fixtures" / (std::string(name) + ".so");
}

}  // namespace stand::test

namespace stand::test {

inline std::filesystem::path stand_binary() { return build_dir() / "bin" / "stand"; }
inline std::filesystem::path bad_plugin(const char* id) {
    return build_dir() / "tests" / "bad-plugins" / (std::string(id) + ".so");
}

}  // namespace stand::test
