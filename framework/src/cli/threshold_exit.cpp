#include "cli/threshold_exit.hpp"

#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "report/threshold_section.hpp"
#include "text/secrets.hpp"
#include "text/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <unistd.h>

namespace stand::cli {

void check_junit_file(const std::string& file, std::size_t thresholds) {
    if (thresholds == 0)
        throw UsageError("--junit " + file + ": the scenario has no \"thresholds\" (scenarios/README.md, \"Thresholds\")");
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path path(file);
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    if (!fs::is_directory(dir, ec)) throw UsageError("--junit " + file + ": " + dir.string() + " is not a directory");
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
        throw UsageError("--junit " + file + ": not a regular file (a JUnit report is written there)");
    if (::access(dir.c_str(), W_OK) != 0)
        throw UsageError("--junit " + file + ": cannot write in " + dir.string() + ": " + std::strerror(errno));
}

int threshold_code(const std::vector<detect::ThresholdOutcome>& outcomes, const std::optional<std::string>& junit,
                   const std::string& suite) {
    if (junit) text::write_text_file(*junit, text::secrets().scrub(report::thresholds_junit(outcomes, suite)));
    if (outcomes.empty()) return kExitOk;
    std::cerr << text::secrets().scrub(report::thresholds_line(outcomes)) << "\n";
    for (const auto& o : outcomes)
        if (o.status != "passed") std::cerr << "  " << text::secrets().scrub(detect::threshold_line(o)) << "\n";
    return report::tally(outcomes).failing() ? kExitThresholds : kExitOk;
}

}  // namespace stand::cli
