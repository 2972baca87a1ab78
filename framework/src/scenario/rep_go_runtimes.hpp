// go-runtime-oversized over the Go programs seen in the measured box during
// a repetition, with the repetition's throttling: "go_runtimes",
// "go_runtime_notes" and findings in the record.
#pragma once

#include "detect/go_runtime.hpp"
#include "scenario/steps/rep_context.hpp"

namespace stand::scenario {

void check_go_runtimes(RepContext& ctx, const detect::GoProcessScanner& seen);

}  // namespace stand::scenario
