// The message a scenario text is refused with ("" when it parses), for the
// scenario parser's tests.
#pragma once

#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"

#include <string>

namespace stand::test {

inline std::string error_of(const std::string& text, const scenario::ParamOverrides& params = {}) {
    try {
        scenario::parse_scenario_text(text, "t.json", params);
    } catch (const scenario::ScenarioError& e) {
        return e.what();
    }
    return "";
}

}  // namespace stand::test
