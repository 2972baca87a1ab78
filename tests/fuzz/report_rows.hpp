// Per-rep rows for the metrics a table spec names, for the report harnesses.
#pragma once

#include "report/per_rep.hpp"
#include "report/table_spec.hpp"

#include <limits>
#include <vector>

namespace stand::fuzz {

// Values of every kind a measurement can take, for each metric of the spec
// (its ratio_of metric too), in two plugins, one with a '|' in its name.
inline std::vector<report::PerRepRow> rows_for(const report::TableSpec& spec) {
    const double values[] = {0.0, 1.5, -2.0, 1e300, std::numeric_limits<double>::denorm_min(), 3.0};
    std::vector<report::PerRepRow> rows;
    std::int64_t rep = 0;
    for (const auto& row : spec.rows)
        for (const char* plugin : {"alpha", "beta|gamma"})
            for (double v : values) {
                rows.push_back({plugin, ++rep % 4, row.metric, v});
                if (!row.ratio_of.empty()) rows.push_back({plugin, rep % 4, row.ratio_of, v * 2});
            }
    for (const auto& column : spec.columns) rows.push_back({column, 1, spec.rows.empty() ? "m" : spec.rows[0].metric, 1});
    return rows;
}

}  // namespace stand::fuzz
