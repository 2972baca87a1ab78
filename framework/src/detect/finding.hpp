// What a detector found: a known way of measuring the wrong thing, shown in
// the report next to the number ("What these numbers do not tell you").
#pragma once

#include <boost/json.hpp>

#include <string>

namespace stand::detect {

struct Finding {
    std::string id;       // stable: "generator-saturated", "machine-busy", ...
    std::string scope;    // what it concerns: "<plugin> rep <n>, step <name>"
    std::string message;  // one sentence, with the numbers that triggered it

    boost::json::object to_json() const { return {{"id", id}, {"scope", scope}, {"message", message}}; }
};

}  // namespace stand::detect
