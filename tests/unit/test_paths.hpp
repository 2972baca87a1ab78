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
