// report.html of a run directory: one self-contained file (inline CSS and
// SVG, no scripts, nothing fetched) with the run's facts, the scenario's
// tables (median (min-max), n) each followed by bars with min-max whiskers
// per row, latency CDFs per load step, memory and CPU over time per
// repetition (from RUN_DIR/samples/<key>.csv), the repetitions that did not
// finish with their reasons, and "What these numbers do not tell you".
// Every text is HTML-escaped; the same input gives the same bytes.
#pragma once

#include <boost/json/object.hpp>

#include <filesystem>
#include <string>

namespace stand::report {

// `results` is the object write_run_report() writes as results.json
// ("run", "reps", "findings", ...); samples are read from `run_dir`.
std::string render_html_report(const boost::json::object& results, const std::filesystem::path& run_dir);

}  // namespace stand::report
