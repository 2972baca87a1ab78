// One measured value of one repetition: the unit every report is built from.
// A results.json, a per_rep.csv or a live run all reduce to these rows.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stand::report {

struct PerRepRow {
    std::string plugin;  // the column of a table (the seed harness says "panel")
    std::int64_t rep = 0;
    std::string metric;  // a short key ("idle0_mem") or a label with commas
    double value = 0;

    friend bool operator==(const PerRepRow&, const PerRepRow&) = default;
};

// (plugin, metric) -> the values of its rows, in row order.
using PluginMetricSamples = std::map<std::pair<std::string, std::string>, std::vector<double>>;

inline PluginMetricSamples samples_by_plugin_metric(const std::vector<PerRepRow>& rows) {
    PluginMetricSamples out;
    for (const auto& r : rows) out[{r.plugin, r.metric}].push_back(r.value);
    return out;
}

}  // namespace stand::report
