// <stand/stand.hpp>, the SDK's C++ umbrella, alone brings every helper of
// stand/cpp/ (issue 51: it lacked executable.hpp, and a plugin that used
// find_on_path() after including only it did not compile). This file must
// include nothing else of the SDK.
#include <stand/stand.hpp>

#include <doctest/doctest.h>

TEST_CASE("sdk umbrella: <stand/stand.hpp> alone gives find_on_path, resolve_executable and the plugin helpers") {
    CHECK(stand::cpp::find_on_path("sh", "/nonexistent:/bin:/usr/bin").has_value());
    CHECK_FALSE(stand::cpp::find_on_path("no-such-program-here", "/bin").has_value());
    CHECK(stand::cpp::resolve_executable("/bin/sh") == "/bin/sh");
    CHECK(stand::cpp::is_executable_file("/bin/sh"));
    stand::cpp::ConfigSpec spec;  // config_spec.hpp
    spec.string("command", "a program");
    CHECK(spec.read(boost::json::object{{"command", "sh"}}).string("command") == "sh");
    CHECK(stand::cpp::Error(STAND_E_NOT_FOUND, "x").code() == STAND_E_NOT_FOUND);  // error.hpp
}
