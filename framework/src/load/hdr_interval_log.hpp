// A run's latency as an HdrHistogram interval log: the text Java's
// HistogramLogWriter writes and HistogramLogReader, HistogramLogProcessor
// and the Python package hdrhistogram (hdrh.log.HistogramLogReader) read
// (`stand load --hdr-log FILE`). Comment lines: who wrote it and the units,
// the format version 1.3, #[StartTime: ...] and #[BaseTime: ...] (the
// window's opening, seconds since the epoch); the legend line; then per
// interval "start,length,max,HISTFAAA..." with start and length in seconds
// from the window's opening and the histogram in load/hdr_encoding.hpp's
// form.
//
// Units: the histograms hold microseconds (stand's latency histograms); the
// Interval_Max column is in milliseconds (max µs / 1000), as
// HistogramLogWriter's default ratio makes ms of ns. HistogramLogProcessor
// prints values divided by -outputValueUnitRatio: give 1000 for ms (its
// default, 1000000, assumes ns).
#pragma once

#include "load/load_result.hpp"

#include <filesystem>
#include <ostream>
#include <string>

namespace stand::load {

// Every interval from the window's opening to the end of the drain
// (result.elapsed_s; the last may be shorter), empty ones too, line by line
// into `out`. Needs result.latency_intervals enabled
// (LoadSpec::histogram_interval).
void write_hdr_interval_log(std::ostream& out, const LoadResult& result);
// The same as one string.
std::string hdr_interval_log(const LoadResult& result);
// Into the file, never held whole. Throws text::TextFileError naming the file.
void write_hdr_interval_log(const std::filesystem::path& file, const LoadResult& result);

}  // namespace stand::load
