#include "report/sample_series.hpp"

#include "report/csv.hpp"
#include "report/report_error.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

namespace stand::report {
namespace {

std::optional<double> number(const std::string& field) {
    if (field.empty()) return std::nullopt;
    double v = 0;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
    return v;
}

std::size_t column(const CsvRecord& header, const char* name, const std::string& source) {
    auto it = std::find(header.fields.begin(), header.fields.end(), name);
    if (it == header.fields.end())
        throw ReportError(source + ":" + std::to_string(header.line) + ": no column '" + name + "'");
    return static_cast<std::size_t>(it - header.fields.begin());
}

struct CpuSample {
    double t = 0;
    double usage_us = 0;
};

std::vector<Point> cpu_percent(const std::vector<CpuSample>& samples) {
    std::vector<Point> out;
    if (samples.size() < 2) return out;
    std::vector<double> dts;
    for (std::size_t i = 1; i < samples.size(); ++i)
        if (samples[i].t > samples[i - 1].t) dts.push_back(samples[i].t - samples[i - 1].t);
    if (dts.empty()) return out;
    std::nth_element(dts.begin(), dts.begin() + static_cast<std::ptrdiff_t>(dts.size() / 2), dts.end());
    const double min_dt = dts[dts.size() / 2] / 2;
    CpuSample anchor = samples.front();
    for (std::size_t i = 1; i < samples.size(); ++i) {
        const auto& s = samples[i];
        if (s.usage_us < anchor.usage_us) {  // the counter went back: start over
            anchor = s;
            continue;
        }
        const double dt = s.t - anchor.t;
        if (dt < min_dt) continue;
        out.push_back({(anchor.t + s.t) / 2, 100.0 * (s.usage_us - anchor.usage_us) / (dt * 1e6)});
        anchor = s;
    }
    return out;
}

}  // namespace

SampleSeries parse_sample_series(std::string_view csv_text, const std::string& source) {
    SampleSeries out;
    auto records = parse_csv(csv_text, source);
    if (records.empty()) return out;
    const auto& header = records.front();
    const std::size_t t_col = column(header, "t_s", source);
    const std::size_t mem_col = column(header, "mem_current", source);
    const std::size_t cpu_col = column(header, "cpu_usage_us", source);
    std::vector<CpuSample> cpu;
    for (std::size_t i = 1; i < records.size(); ++i) {
        const auto& f = records[i].fields;
        if (f.size() != header.fields.size())
            throw ReportError(source + ":" + std::to_string(records[i].line) + ": " + std::to_string(f.size()) +
                              " fields, the header has " + std::to_string(header.fields.size()));
        ++out.rows;
        auto t = number(f[t_col]);
        if (!t) continue;
        if (auto mem = number(f[mem_col])) out.memory_mib.push_back({*t, *mem / (1024.0 * 1024.0)});
        if (auto usage = number(f[cpu_col])) cpu.push_back({*t, *usage});
    }
    out.cpu_pct = cpu_percent(cpu);
    return out;
}

}  // namespace stand::report
