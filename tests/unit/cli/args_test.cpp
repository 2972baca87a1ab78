#include "cli/args.hpp"

#include <doctest/doctest.h>

using stand::cli::Args;
using stand::cli::UsageError;

TEST_CASE("args: options with values, flags, repeats and positionals") {
    Args a("compat", {"hello", "--timeout", "2", "--json", "--plugin-path=/a", "--plugin-path", "/b"},
           {{"json"}, {"timeout", true}, {"plugin-path", true, true}});
    CHECK(a.flag("json"));
    CHECK(a.value("timeout") == "2");
    CHECK(a.values("plugin-path") == std::vector<std::string>{"/a", "/b"});
    REQUIRE(a.positionals().size() == 1);
    CHECK(a.positionals()[0] == "hello");
    CHECK_FALSE(a.value("missing").has_value());
}

TEST_CASE("args: every mistake is a usage error naming the option and command") {
    auto message = [](std::vector<std::string> argv) {
        try {
            Args a("compat", argv, {{"json"}, {"timeout", true}});
            a.expect_positionals(1, 1, "a plugin");
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(message({"x", "--bogus"}).find("unknown option '--bogus' for 'compat'") != std::string::npos);
    CHECK(message({"x", "--timeout"}).find("--timeout of 'compat' needs a value") != std::string::npos);
    CHECK(message({"x", "--json=yes"}).find("takes no value") != std::string::npos);
    CHECK(message({"x", "--timeout", "1", "--timeout", "2"}).find("more than once") != std::string::npos);
    CHECK(message({}).find("needs a plugin") != std::string::npos);
    CHECK(message({"a", "b"}).find("unexpected argument 'b'") != std::string::npos);
    CHECK(message({"--", "--json"}).empty());  // after -- everything is positional
}
