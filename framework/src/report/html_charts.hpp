// The chart sections of report.html: latency CDFs per load step and memory /
// CPU time series per repetition, as HTML figures with inline SVG.
#pragma once

#include "report/svg_plot.hpp"

#include <boost/json/object.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

// One repetition as the charts show it.
struct RepView {
    const boost::json::object* rep = nullptr;  // reps/<key>.json
    std::string key;                           // "nginx_r1"
    std::string label;                         // "nginx rep 1"
    LineStyle style;                           // the plugin's colour, the rep's dash
    bool ok = false;                           // status "ok"
};

inline constexpr double kChartWidth = 920;
inline constexpr const char* kBandFill = "#eaf0f7";  // a step's measured window

// The step names under `key` ("loads", "capacity") of the finished
// repetitions, each once, in first-seen order.
std::vector<std::string> step_names_in(const std::vector<RepView>& reps, std::string_view key);

// A CDF per load step (first seen order) over the "ok" repetitions, from the
// load generator's latency_us.all percentiles; x: latency in ms, log scale.
std::string latency_section(const std::vector<RepView>& reps);

// One figure per repetition from RUN_DIR/samples/<key>.csv: memory.current
// (MiB) above CPU (% of one CPU), on scales shared by all repetitions, with
// the measured windows of the steps shaded.
std::string time_series_section(const std::vector<RepView>& reps, const std::filesystem::path& run_dir);

}  // namespace stand::report
