#include "report/capacity_section.hpp"

#include "report/html_text.hpp"
#include "report/json_get.hpp"
#include "rundir/run_files.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace stand::report {
namespace {

namespace json = boost::json;
using json_get::array_at;
using json_get::number_at;
using json_get::object_at;
using json_get::string_at;

const json::object* search_of(const RepView& r, const std::string& step) {
    const json::object* all = object_at(*r.rep, rundir::rep_key::kCapacity);
    return all != nullptr ? object_at(*all, step) : nullptr;
}

std::string rate_cell(const json::object& search, std::string_view key) {
    const auto v = number_at(search, key);
    return v ? fixed(*v, *v >= 100 ? 0 : 2) + "/s" : "–";
}

std::string step_figure(const std::string& step, const std::vector<RepView>& reps) {
    std::vector<LineSeries> series;
    std::vector<LegendEntry> legend;
    std::string rows;
    double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
    std::optional<double> p95_limit;
    for (const auto& r : reps) {
        const json::object* search = r.ok ? search_of(r, step) : nullptr;
        if (search == nullptr) continue;
        if (const json::object* objective = object_at(*search, "objective")) p95_limit = number_at(*objective, "p95_ms");
        std::vector<Point> met, all;
        if (const json::array* levels = array_at(*search, "levels"))
            for (const auto& v : *levels) {
                if (!v.is_object()) continue;
                const auto x = number_at(v.get_object(), "offered_rps");
                const auto y = number_at(v.get_object(), "p95_ms");
                if (!x || !y || *x <= 0 || *y <= 0) continue;
                all.push_back({*x, *y});
                x_lo = std::min(x_lo, *x), x_hi = std::max(x_hi, *x), y_lo = std::min(y_lo, *y), y_hi = std::max(y_hi, *y);
            }
        std::sort(all.begin(), all.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
        if (!all.empty()) {
            series.push_back({r.style, std::move(all), true});
            legend.push_back({r.style, r.label});
        }
        rows += "<tr><td>" + html_escape(r.label) + "</td><td>" + html_escape(string_at(*search, "end")) + "</td><td>" +
                rate_cell(*search, "best_rate") + "</td><td>" + rate_cell(*search, "first_failed_rate") + "</td><td>" +
                html_escape(string_at(*search, "broke")) + "</td><td>" + html_escape(string_at(*search, "summary")) +
                "</td></tr>";
    }
    std::string out = "<figure><figcaption><strong>" + html_escape(step) +
                      "</strong>: p95 latency (from the intended send time) at each offered rate, one line per "
                      "finished repetition</figcaption>";
    if (!series.empty()) {
        if (p95_limit) y_lo = std::min(y_lo, *p95_limit), y_hi = std::max(y_hi, *p95_limit);
        Legend leg = render_legend(legend, kPanelLeft, 0, kChartWidth - kPanelLeft - kPanelRight);
        Panel p;
        p.x = log_axis(x_lo, x_hi);
        p.y = log_axis(y_lo, y_hi);
        p.x_title = "offered rate (requests/s, log scale)";
        p.y_title = "p95 (ms, log scale)";
        if (p95_limit) p.refs = {{*p95_limit, "p95 objective", true}};
        p.series = std::move(series);
        const Frame f{kPanelLeft, leg.height + 14, kChartWidth - kPanelLeft - kPanelRight, 260};
        out += svg_element(kChartWidth, f.top + f.height + kPanelBelow, "capacity curve of step " + step,
                           leg.svg + render_panel(p, f));
    }
    out += "<table><thead><tr><th>repetition</th><th>end</th><th>highest rate met</th><th>first rate failed</th>"
           "<th>what broke</th><th>summary</th></tr></thead><tbody>" +
           rows + "</tbody></table>";
    return out + "</figure>";
}

}  // namespace

std::string capacity_section(const std::vector<RepView>& reps) {
    const std::vector<std::string> steps = step_names_in(reps, rundir::rep_key::kCapacity);
    if (steps.empty()) return "";
    std::string out = "<section id=\"capacity\"><h2>Capacity searches</h2><p class=\"note\">Each level held the "
                      "offered rate for the step's dwell time; the search went up by its factor until a level "
                      "failed the objective, then bisected. A level where the load generator saturated ends the "
                      "search: its rate is the generator's limit, not the system's.</p>";
    for (const auto& s : steps) out += step_figure(s, reps);
    return out + "</section>";
}

}  // namespace stand::report
