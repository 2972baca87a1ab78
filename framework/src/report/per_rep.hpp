// One measured value of one repetition: the unit every report is built from.
// A results.json, a per_rep.csv or a live run all reduce to these rows.
#pragma once

#include <cstdint>
#include <string>

namespace stand::report {

struct PerRepRow {
    std::string plugin;  // the column of a table (the seed harness says "panel")
    std::int64_t rep = 0;
    std::string metric;  // a short key ("idle0_mem") or a label with commas
    double value = 0;

    friend bool operator==(const PerRepRow&, const PerRepRow&) = default;
};

}  // namespace stand::report
