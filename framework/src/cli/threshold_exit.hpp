// What a run's thresholds make of its exit: after the report is written,
// their tally on stderr, the JUnit file of --junit (one test case per
// threshold and plugin), and kExitThresholds when one is crossed or could
// not be evaluated. `stand run`, `stand report RUN_DIR` and a run on hosts
// all end here.
#pragma once

#include "detect/thresholds.hpp"

#include <optional>
#include <string>
#include <vector>

namespace stand::cli {

// --junit FILE, before anything is measured: the scenario has thresholds
// and FILE can be written (its directory exists; FILE, if it exists, is a
// regular file). Throws UsageError naming the option.
void check_junit_file(const std::string& file, std::size_t thresholds);

// kExitOk or kExitThresholds; throws text::TextFileError when --junit's file
// cannot be written (the run's own files are already written).
int threshold_code(const std::vector<detect::ThresholdOutcome>& outcomes, const std::optional<std::string>& junit,
                   const std::string& suite);

}  // namespace stand::cli
