// Inline SVG drawing for the HTML report: line panels (axes, nice ticks,
// grid, shaded x ranges, reference lines), legends, and horizontal bars with
// min-max whiskers. Text is escaped here; styles are classes the report's
// stylesheet defines (see html_report.cpp) plus per-series colours.
#pragma once

#include "report/plot_axis.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

struct LineStyle {
    std::string color;  // "#0072b2"
    std::string dash;   // SVG stroke-dasharray; empty: solid
};

struct LineSeries {
    LineStyle style;
    std::vector<Point> points;
    bool markers = false;  // a dot on every point
};

struct Band {  // a shaded x range, labelled above the frame
    double x0 = 0;
    double x1 = 0;
    std::string label;
};

struct RefLine {  // a dashed horizontal line, labelled right of the frame (kPanelRight holds 4 characters)
    double y = 0;
    std::string label;
    bool label_inside = false;  // a longer label: inside the frame, right-aligned above the line
};

struct Frame {  // the plotting area, in SVG pixels
    double left = 0;
    double top = 0;
    double width = 0;
    double height = 0;
};

// Room a panel's decorations need around its frame.
inline constexpr double kPanelLeft = 64;     // y title and tick labels
inline constexpr double kPanelRight = 36;    // reference line labels
inline constexpr double kPanelAbove = 30;    // two rows of band labels
inline constexpr double kPanelBelow = 40;    // x tick labels and x title

struct Panel {
    Axis x;
    Axis y;
    std::string x_title;
    std::string y_title;
    std::vector<Band> bands;
    std::vector<RefLine> refs;
    std::vector<LineSeries> series;
};

std::string render_panel(const Panel& panel, const Frame& frame);

struct LegendEntry {
    LineStyle style;
    std::string label;
    bool swatch = false;  // a filled box (for bands) instead of a line sample
};

struct Legend {
    std::string svg;
    double height = 0;
};

// Entries left to right from (left, top), wrapping at `width`.
Legend render_legend(const std::vector<LegendEntry>& entries, double left, double top, double width);

struct WhiskerBar {
    std::string label;  // left of the bar
    std::string color;
    bool has_values = false;
    double median = 0;
    double min = 0;
    double max = 0;
    std::string text;  // right of the plot
};

// One horizontal bar per entry from 0 to the median with a whisker from min
// to max, on a shared axis with ticks; `width` pixels wide.
std::string whisker_bars_svg(const std::vector<WhiskerBar>& bars, const std::string& aria_label, double width);

// <svg> of that size (and viewBox) around `body`, labelled for screen readers.
std::string svg_element(double width, double height, const std::string& aria_label, const std::string& body);

// Estimated width of `text` at `font_px` in a system sans-serif font.
double text_width(std::string_view text, double font_px = 12);

}  // namespace stand::report
