// Metric families written in the OpenMetrics 1.0 text format, or in
// Prometheus's older text format 0.0.4 for a client that does not ask for
// OpenMetrics (`curl URL | promtool check metrics`, which lints only that).
// The two differ in a counter's and an info's family name (OpenMetrics names
// the family without _total or _info, 0.0.4 with them), in the info type
// (0.0.4 has none: a gauge), in # UNIT and # EOF (OpenMetrics only), and in
// what HELP text escapes.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stand::live {

enum class MetricFormat { open_metrics, prometheus_text };
enum class MetricType { gauge, counter, info, summary };

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

struct MetricSample {
    MetricLabels labels;
    double value = 0;
    // After the family's name: a summary's "_sum" and "_count"; empty for
    // the rest (a counter's "_total" and an info's "_info" are added here).
    std::string suffix;
};

struct MetricFamily {
    std::string name;  // e.g. stand_load_completed (no _total)
    MetricType type = MetricType::gauge;
    std::string unit;  // empty, or the name's last part (seconds, bytes)
    std::string help;
    std::vector<MetricSample> samples;
};

// The format a request's Accept header asks for.
MetricFormat format_for_accept(std::string_view accept);
std::string_view content_type(MetricFormat format);

// Every family with at least one sample; ends with "# EOF" in OpenMetrics.
std::string render_metrics(const std::vector<MetricFamily>& families, MetricFormat format);

// A label value with \, " and newline escaped.
std::string escape_label_value(std::string_view value);

}  // namespace stand::live
