// Exit codes of the `stand` CLI; documented in `stand --help`.
#pragma once

namespace stand::cli {

enum ExitCode : int {
    kExitOk = 0,
    kExitFailed = 1,         // a check or measurement failed
    kExitUsage = 2,          // bad command line, scenario or config
    kExitPluginRefused = 3,  // the loader refused a plugin
    kExitInternal = 4,       // a bug in stand
    kExitThresholds = 99,    // a scenario's threshold or a compare gate crossed or undecided (k6 uses 99 alike)
    kExitInterrupted = 130   // SIGINT
};

}  // namespace stand::cli
