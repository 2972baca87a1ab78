#include "live/metric_text.hpp"

#include <charconv>
#include <cmath>

namespace stand::live {
namespace {

// HELP text: OpenMetrics escapes as a label value does; 0.0.4 knows only \\ and \n.
std::string escape_help(std::string_view text, MetricFormat format) {
    if (format == MetricFormat::open_metrics) return escape_label_value(text);
    std::string out;
    for (const char c : text) {
        if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

// The shortest text that reads back as the same double; NaN and +-Inf as both formats spell them.
std::string number_text(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc{} ? std::string(buffer, end) : "NaN";
}

const char* type_word(MetricType type, MetricFormat format) {
    switch (type) {
    case MetricType::counter: return "counter";
    case MetricType::summary: return "summary";
    case MetricType::info: return format == MetricFormat::open_metrics ? "info" : "gauge";
    case MetricType::gauge: break;
    }
    return "gauge";
}

// What a sample's name adds to the family's name in every format.
std::string_view sample_suffix(MetricType type) {
    if (type == MetricType::counter) return "_total";
    if (type == MetricType::info) return "_info";
    return "";
}

void append_sample(std::string& out, const std::string& name, const MetricSample& sample) {
    out += name;
    out += sample.suffix;
    if (!sample.labels.empty()) {
        out += '{';
        for (std::size_t i = 0; i < sample.labels.size(); ++i) {
            if (i) out += ',';
            out += sample.labels[i].first;
            out += "=\"";
            out += escape_label_value(sample.labels[i].second);
            out += '"';
        }
        out += '}';
    }
    out += ' ';
    out += number_text(sample.value);
    out += '\n';
}

}  // namespace

MetricFormat format_for_accept(std::string_view accept) {
    return accept.find("application/openmetrics-text") != std::string_view::npos ? MetricFormat::open_metrics
                                                                                  : MetricFormat::prometheus_text;
}

std::string_view content_type(MetricFormat format) {
    return format == MetricFormat::open_metrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                                : "text/plain; version=0.0.4; charset=utf-8";
}

std::string escape_label_value(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

std::string render_metrics(const std::vector<MetricFamily>& families, MetricFormat format) {
    const bool open = format == MetricFormat::open_metrics;
    std::string out;
    for (const auto& family : families) {
        if (family.samples.empty()) continue;
        const std::string sample_name = family.name + std::string(sample_suffix(family.type));
        // 0.0.4 names a counter's and an info's family as its samples are named.
        const std::string& described = open ? family.name : sample_name;
        out += "# TYPE " + described + " " + type_word(family.type, format) + "\n";
        if (open && !family.unit.empty()) out += "# UNIT " + described + " " + family.unit + "\n";
        out += "# HELP " + described + " " + escape_help(family.help, format) + "\n";
        for (const auto& sample : family.samples) append_sample(out, sample_name, sample);
    }
    if (open) out += "# EOF\n";
    return out;
}

}  // namespace stand::live
