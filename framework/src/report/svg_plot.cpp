#include "report/svg_plot.hpp"

#include "report/html_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace stand::report {
namespace {

std::string num(double v) { return fixed(v, 1); }

std::string line(double x1, double y1, double x2, double y2, const char* cls) {
    return "<line class=\"" + std::string(cls) + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) +
           "\" y2=\"" + num(y2) + "\"/>";
}

std::string text(double x, double y, const char* anchor, const char* cls, const std::string& content) {
    std::string out = "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"";
    if (*anchor != '\0') out += " text-anchor=\"" + std::string(anchor) + "\"";
    if (*cls != '\0') out += " class=\"" + std::string(cls) + "\"";
    return out + ">" + html_escape(content) + "</text>";
}

std::string stroke(const LineStyle& s) {
    std::string out = " stroke=\"" + html_escape(s.color) + "\"";
    if (!s.dash.empty()) out += " stroke-dasharray=\"" + html_escape(s.dash) + "\"";
    return out;
}

struct Mapper {
    const Panel& p;
    const Frame& f;
    double x(double v) const { return f.left + std::clamp(p.x.fraction(v), 0.0, 1.0) * f.width; }
    double y(double v) const { return f.top + (1 - std::clamp(p.y.fraction(v), 0.0, 1.0)) * f.height; }
};

std::string bands_svg(const Panel& p, const Frame& f, const Mapper& m) {
    std::string out;
    std::array<double, 2> row_end{-1e9, -1e9};
    for (const auto& b : p.bands) {
        const double x0 = m.x(b.x0);
        const double x1 = m.x(b.x1);
        if (!(x1 > x0)) continue;
        out += "<rect class=\"band\" x=\"" + num(x0) + "\" y=\"" + num(f.top) + "\" width=\"" + num(x1 - x0) +
               "\" height=\"" + num(f.height) + "\"/>";
        if (b.label.empty()) continue;
        const double w = text_width(b.label, 11);
        const double start = std::min(x0 + 2, f.left + f.width - w);
        for (std::size_t r = 0; r < row_end.size(); ++r) {
            if (start < row_end[r] + 6) continue;
            out += text(start, f.top - 5 - 13 * static_cast<double>(r), "", "band-label", b.label);
            row_end[r] = start + w;
            break;
        }
    }
    return out;
}

std::string grid_and_ticks(const Panel& p, const Frame& f, const Mapper& m) {
    std::string out;
    const double bottom = f.top + f.height;
    for (const auto& t : p.x.ticks) {
        const double x = m.x(t.value);
        out += line(x, f.top, x, bottom, t.label.empty() ? "grid-minor" : "grid");
        out += line(x, bottom, x, bottom + (t.label.empty() ? 3 : 5), "axis");
        if (!t.label.empty()) out += text(x, bottom + 17, "middle", "", t.label);
    }
    for (const auto& t : p.y.ticks) {
        const double y = m.y(t.value);
        out += line(f.left, y, f.left + f.width, y, t.label.empty() ? "grid-minor" : "grid");
        out += line(f.left - (t.label.empty() ? 3 : 5), y, f.left, y, "axis");
        if (!t.label.empty()) out += text(f.left - 8, y + 4, "end", "", t.label);
    }
    out += line(f.left, f.top, f.left, bottom, "axis");
    out += line(f.left, bottom, f.left + f.width, bottom, "axis");
    if (!p.x_title.empty()) out += text(f.left + f.width / 2, bottom + 34, "middle", "axis-title", p.x_title);
    if (!p.y_title.empty()) {
        const double cx = f.left - kPanelLeft + 12;
        const double cy = f.top + f.height / 2;
        out += "<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate(" + num(cx) + " " + num(cy) +
               ") rotate(-90)\">" + html_escape(p.y_title) + "</text>";
    }
    return out;
}

std::string series_svg(const Panel& p, const Mapper& m) {
    std::string out;
    for (const auto& s : p.series) {
        if (s.points.empty()) continue;
        if (s.points.size() > 1) {
            out += "<polyline class=\"series\"" + stroke(s.style) + " points=\"";
            for (std::size_t i = 0; i < s.points.size(); ++i)
                out += (i ? " " : "") + num(m.x(s.points[i].x)) + "," + num(m.y(s.points[i].y));
            out += "\"/>";
        }
        if (s.markers || s.points.size() == 1)
            for (const auto& pt : s.points)
                out += "<circle cx=\"" + num(m.x(pt.x)) + "\" cy=\"" + num(m.y(pt.y)) + "\" r=\"2.5\" fill=\"" +
                       html_escape(s.style.color) + "\"/>";
    }
    return out;
}

// `s` cut to fit `max_px` at 12 px, with an ellipsis when cut (whole UTF-8 characters).
std::string fit(const std::string& s, double max_px) {
    if (text_width(s) <= max_px) return s;
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t len = 1;
        while (i + len < s.size() && (static_cast<unsigned char>(s[i + len]) & 0xC0) == 0x80) ++len;
        if (text_width(out + s.substr(i, len) + "\u2026") > max_px) break;
        out += s.substr(i, len);
        i += len;
    }
    return out + "\u2026";
}

}  // namespace

double text_width(std::string_view s, double font_px) {
    std::size_t chars = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++chars;
    return static_cast<double>(chars) * font_px * 0.6;
}

std::string render_panel(const Panel& p, const Frame& f) {
    Mapper m{p, f};
    std::string out = "<g>";
    out += bands_svg(p, f, m);
    out += grid_and_ticks(p, f, m);
    for (const auto& r : p.refs) {
        const double y = m.y(r.y);
        out += line(f.left, y, f.left + f.width, y, "ref");
        if (r.label_inside)
            out += text(f.left + f.width - 4, y - 4, "end", "ref-label", r.label);
        else
            out += text(f.left + f.width + 4, y + 4, "", "ref-label", r.label);
    }
    out += series_svg(p, m);
    return out + "</g>";
}

Legend render_legend(const std::vector<LegendEntry>& entries, double left, double top, double width) {
    Legend legend;
    if (entries.empty()) return legend;
    constexpr double kRow = 18;
    double x = left;
    double y = top + 12;
    for (const auto& e : entries) {
        const double w = 30 + text_width(e.label) + 18;
        if (x > left && x + w > left + width) {
            x = left;
            y += kRow;
        }
        if (e.swatch)
            legend.svg += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 9) + "\" width=\"22\" height=\"10\" fill=\"" +
                          html_escape(e.style.color) + "\"/>";
        else
            legend.svg += "<line class=\"series\" x1=\"" + num(x) + "\" y1=\"" + num(y - 4) + "\" x2=\"" + num(x + 22) +
                          "\" y2=\"" + num(y - 4) + "\"" + stroke(e.style) + "/>";
        legend.svg += text(x + 28, y, "", "", e.label);
        x += w;
    }
    legend.height = y - top + 8;
    return legend;
}

std::string whisker_bars_svg(const std::vector<WhiskerBar>& bars, const std::string& aria_label, double width) {
    constexpr double kRow = 24;
    constexpr double kTop = 6;
    double label_w = 60;
    double text_w = 200;
    double lo = 0;
    double hi = 0;
    for (const auto& b : bars) {
        label_w = std::max(label_w, text_width(b.label) + 14);
        text_w = std::max(text_w, text_width(b.text) + 16);
        if (b.has_values) {
            lo = std::min({lo, b.min, b.median});
            hi = std::max({hi, b.max, b.median});
        }
    }
    label_w = std::min(label_w, 240.0);
    text_w = std::min(text_w, 320.0);
    Panel p;
    p.x = linear_axis(lo, hi, 5);
    p.y = linear_axis(0, 1, 1);
    p.y.ticks.clear();
    const Frame f{label_w, kTop, width - label_w - text_w - 12, kRow * static_cast<double>(bars.size())};
    Mapper m{p, f};
    std::string body = grid_and_ticks(p, f, m);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto& b = bars[i];
        const double cy = f.top + kRow * (static_cast<double>(i) + 0.5);
        body += text(label_w - 8, cy + 4, "end", "", fit(b.label, label_w - 12));
        body += text(f.left + f.width + 12, cy + 4, "", "", fit(b.text, text_w - 14));
        if (!b.has_values) continue;
        const double x0 = m.x(0);
        const double xm = m.x(b.median);
        body += "<rect class=\"bar\" x=\"" + num(std::min(x0, xm)) + "\" y=\"" + num(cy - 7) + "\" width=\"" +
                num(std::max(std::abs(xm - x0), 1.0)) + "\" height=\"14\" fill=\"" + html_escape(b.color) +
                "\" stroke=\"" + html_escape(b.color) + "\"/>";
        const double xa = m.x(b.min);
        const double xb = m.x(b.max);
        body += line(xa, cy, xb, cy, "whisker") + line(xa, cy - 5, xa, cy + 5, "whisker") +
                line(xb, cy - 5, xb, cy + 5, "whisker");
    }
    return svg_element(width, f.top + f.height + 24, aria_label, body);
}

std::string svg_element(double width, double height, const std::string& aria_label, const std::string& body) {
    const std::string w = num(width);
    const std::string h = num(std::ceil(height));
    return "<svg width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
           "\" role=\"img\" aria-label=\"" + html_escape(aria_label) + "\">" + body + "</svg>";
}

}  // namespace stand::report
