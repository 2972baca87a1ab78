// Plot geometry: points, and axes whose ticks fall on nice numbers
// (1, 2 or 5 times a power of ten; decades on a log axis).
#pragma once

#include <string>
#include <vector>

namespace stand::report {

struct Point {
    double x = 0;
    double y = 0;
};

struct Tick {
    double value = 0;
    std::string label;  // empty: a minor tick, drawn without text
};

struct Axis {
    double lo = 0;
    double hi = 1;
    bool log = false;
    std::vector<Tick> ticks;  // ascending, lo and hi included

    // Where `v` falls: 0 at lo, 1 at hi (outside for values out of range;
    // on a log axis values <= 0 map to lo).
    double fraction(double v) const;
};

// [lo, hi] widened to the nearest multiples of a nice step giving about
// `target` intervals. An empty range is widened around its value.
Axis linear_axis(double lo, double hi, int target = 5);

// [lo, hi] (both > 0; smaller values are raised to 1e-9) widened to 1, 2 or
// 5 times a power of ten. Ticks at 1..9 times each power of ten inside;
// labelled: the powers of ten and both ends, 2 and 5 as well when the axis
// spans at most two decades, every tick when it spans at most one.
Axis log_axis(double lo, double hi);

// `value` written with as many decimals as a tick step of `step` needs.
std::string tick_label(double value, double step);

}  // namespace stand::report
