// The latency histograms of one `stand load` run as a file
// (`--histogram-out FILE`, schema "stand.load-histograms/1": per status
// class and "all", the latency and service histograms in stand.hdr/1), and
// the exact merge of several such files (`--merge-histograms`): what
// generators on several hosts give one load step (issue 19).
#pragma once

#include "load/hdr_histogram.hpp"

#include <boost/json/object.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace stand::load {

struct HistogramSet {
    std::map<std::string, HdrHistogram> latency;  // by status class, and "all"
    std::map<std::string, HdrHistogram> service;
};

boost::json::object histogram_set_to_json(const HistogramSet& set);
// Throws std::invalid_argument naming the key and what is wrong.
HistogramSet histogram_set_from_json(const boost::json::value& v);

// Writes and reads the file; errors name it (text::TextFileError, or
// std::invalid_argument "FILE: key: why").
void write_histogram_file(const std::filesystem::path& file, const HistogramSet& set);
HistogramSet read_histogram_file(const std::filesystem::path& file);

// Slot by slot; a class missing from one file counts as empty there.
HistogramSet merge_histogram_sets(const std::vector<HistogramSet>& sets);

}  // namespace stand::load
