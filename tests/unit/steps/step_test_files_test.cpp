// Every step kind has its unit test file here, <kind>_step_test.cpp: a kind
// added to the registry without one fails this case.
#include "scenario/steps/step_kind.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

TEST_CASE("step kinds: each has tests/unit/steps/<kind>_step_test.cpp") {
    const std::filesystem::path here = std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests/unit/steps";
    for (const auto* kind : stand::scenario::step_kinds()) {
        const auto file = here / (std::string(kind->name) + "_step_test.cpp");
        CHECK_MESSAGE(std::filesystem::is_regular_file(file), "the step kind ", kind->name, " has no unit test file ",
                      file.string());
    }
}
