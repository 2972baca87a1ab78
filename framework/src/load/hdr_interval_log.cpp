#include "load/hdr_interval_log.hpp"

#include "load/hdr_encoding.hpp"
#include "text/text_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

namespace stand::load {
namespace {

std::string fixed3(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string header(const LoadResult& result) {
    const double start_s = static_cast<double>(result.window_start_unix_ns) / 1e9;
    const auto start_time = static_cast<std::time_t>(result.window_start_unix_ns / 1'000'000'000);
    std::tm utc{};
    gmtime_r(&start_time, &utc);
    char date[64];
    std::strftime(date, sizeof date, "%a %b %d %H:%M:%S UTC %Y", &utc);
    return "#[Logged with stand " STAND_HOST_VERSION ": latency in microseconds, Interval_Max in "
           "milliseconds]\n"
           "#[Histogram log format version 1.3]\n"
           "#[StartTime: " + fixed3(start_s) + " (seconds since epoch), " + date + "]\n"
           "#[BaseTime: " + fixed3(start_s) + " (seconds since epoch)]\n"
           "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
}

}  // namespace

void write_hdr_interval_log(std::ostream& out, const LoadResult& result) {
    const IntervalHistograms& series = result.latency_intervals;
    if (!series.enabled()) throw std::logic_error("hdr_interval_log: the run kept no interval histograms");
    const double length_s = static_cast<double>(series.interval_ns()) / 1e9;
    const auto covering = static_cast<std::size_t>(std::ceil(result.elapsed_s / length_s - 1e-9));
    const std::size_t count = std::max(series.size(), covering);
    std::string empty;  // an interval nothing completed in: the same line body each time
    out << header(result);
    for (std::size_t i = 0; i < count; ++i) {
        const HdrHistogram::Parts h = series.interval(i);
        if (h.total == 0 && empty.empty()) empty = hdr_v2_compressed_base64(h);
        const double start = static_cast<double>(i) * length_s;
        const double left = result.elapsed_s - start;
        const double length = i + 1 == count && left > 0 && left < length_s ? left : length_s;
        out << fixed3(start) << ',' << fixed3(length) << ',' << fixed3(static_cast<double>(h.max) / 1000.0) << ','
            << (h.total == 0 ? empty : hdr_v2_compressed_base64(h)) << '\n';
    }
}

std::string hdr_interval_log(const LoadResult& result) {
    std::ostringstream out;
    write_hdr_interval_log(out, result);
    return out.str();
}

void write_hdr_interval_log(const std::filesystem::path& file, const LoadResult& result) {
    text::write_text_file(file, [&](std::ostream& out) { write_hdr_interval_log(out, result); });
}

}  // namespace stand::load
