// The step kinds as `stand run --list-steps` prints them: readable text,
// JSON, or Markdown (docs/steps.md, the generated reference).
#pragma once

#include <boost/json.hpp>

#include <string>

namespace stand::scenario {

// Per kind: its name and interface, what it does, its keys (type and
// default), the metrics it emits and its default timeout.
std::string step_kinds_text();
// docs/steps.md: a table of the kinds, then each kind's keys and metrics.
std::string step_kinds_markdown();
// [{"name", "summary", "interface", "keys": [{"name", "type", "default"}],
//   "metrics": [...], "default_timeout_s" | "timeout": "duration + 30 s"}]
boost::json::array step_kinds_json();

}  // namespace stand::scenario
