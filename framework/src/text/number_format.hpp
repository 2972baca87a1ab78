// Number to text: the shortest round-trip form (as Python's repr(float)
// writes it), and validated printf formats for table cells.
#pragma once

#include <string>
#include <string_view>

namespace stand::text {

// Shortest text that reads back as exactly `v`, spelled like Python's
// repr(float): "462.0", "0.1", "53.68055555555556", "1e+16", "1.5e-05", "nan", "inf".
std::string format_shortest(double v);

// Shortest text that reads back as exactly `v`, as std::to_chars writes it,
// whole numbers below 1e15 in digits: "500", "1000000", "0.1", "1e+21",
// "inf". A name made from a number (a threshold's) differs where the numbers
// differ, which "%g" does not ("1e+06" for 1000000 and 1000001).
std::string format_exact(double v);

// Four significant digits, as printf's "%.4g": "612", "1.053", "2.5e+04".
std::string format_4g(double v);

// A printf format for one double: literal text, "%%", and exactly one
// conversion %[flags][width][.precision]{f,F,e,E,g,G} (flags from "-+ 0#",
// width and precision at most 2 digits). Python's `fmt % value` gives the same
// text for these formats (both round the exact binary value half to even).
class PrintfFormat {
public:
    PrintfFormat() = default;
    // Throws std::invalid_argument with the reason.
    explicit PrintfFormat(std::string format);

    const std::string& text() const noexcept { return format_; }
    std::string apply(double value) const;

private:
    std::string format_ = "%g";
};

}  // namespace stand::text
