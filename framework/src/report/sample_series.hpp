// The time series the HTML report draws from a samples/<key>.csv file
// (sampler/sample_csv.hpp): memory.current in MiB at each sample, and CPU
// as percent of one CPU from the cpu_usage_us counter between samples.
#pragma once

#include "report/plot_axis.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

struct SampleSeries {
    std::size_t rows = 0;           // samples in the file
    std::vector<Point> memory_mib;  // (t_s, mem_current / 2^20); empty cells left out
    // (middle of the interval, 100 * delta cpu_usage_us / delta t_us). An
    // interval shorter than half the median sample interval (an extra sample
    // taken at a step boundary) is merged into the next one, so that a few
    // microseconds of CPU over a few milliseconds do not draw a spike.
    std::vector<Point> cpu_pct;
};

// Throws ReportError "SOURCE:LINE: ..." for malformed CSV or a missing column.
SampleSeries parse_sample_series(std::string_view csv_text, const std::string& source);

}  // namespace stand::report
