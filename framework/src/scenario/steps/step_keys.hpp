// Reading the keys several step kinds share, with one set of limits.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"
#include "scenario/steps/step_kind.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stand::scenario::step_keys {

inline constexpr double kMaxDurationS = 86400;  // one day
inline constexpr std::uint64_t kMaxIntervalMs = 60000;
inline constexpr std::uint64_t kMaxRequestMs = 600000;
inline constexpr std::uint64_t kMaxConnections = 100000;
inline constexpr std::uint64_t kMaxUsers = 100000;

std::chrono::milliseconds to_ms(double seconds);
// duration_s, required: a number > 0, at most a day.
Seconds duration(const ObjectReader& r);
// `key`, when present: a path starting with '/' without spaces.
std::optional<std::string> path(const ObjectReader& r, std::string_view key);

// StepKind::parse of a kind without keys of its own.
template <class T>
StepAction no_keys(const ObjectReader&, const StepParseContext&) {
    return T{};
}

// StepKind::duration of a kind whose step type has a `duration`.
template <class T>
std::optional<Seconds> duration_of(const StepAction& action) {
    return action.get<T>().duration;
}

}  // namespace stand::scenario::step_keys
