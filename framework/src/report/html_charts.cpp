#include "report/html_charts.hpp"
#include "rundir/run_files.hpp"

#include "report/html_text.hpp"
#include "report/json_get.hpp"
#include "report/sample_series.hpp"
#include "rundir/run_directory.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace stand::report {
namespace {

namespace json = boost::json;

using json_get::number_at;
using json_get::object_at;
using json_get::string_at;

// ---- latency CDF ----------------------------------------------------------

struct Quantile {
    const char* key;
    double fraction;
};
constexpr std::array<Quantile, 8> kQuantiles{{{"min", 0},
                                              {"p50", 0.5},
                                              {"p75", 0.75},
                                              {"p90", 0.9},
                                              {"p99", 0.99},
                                              {"p99_9", 0.999},
                                              {"p99_99", 0.9999},
                                              {"max", 1}}};
constexpr double kMinLatencyMs = 0.001;  // 1 us: the histogram's resolution

const json::object* step_load(const RepView& r, const std::string& step) {
    const json::object* loads = object_at(*r.rep, rundir::rep_key::kLoads);
    return loads != nullptr ? object_at(*loads, step) : nullptr;
}

std::vector<Point> cdf_points(const json::object& load) {
    std::vector<Point> points;
    const json::object* lat = object_at(load, "latency_us");
    const json::object* all = lat != nullptr ? object_at(*lat, "all") : nullptr;
    if (all == nullptr || number_at(*all, "count").value_or(0) <= 0) return points;
    for (const auto& q : kQuantiles)
        if (auto us = number_at(*all, q.key)) points.push_back({std::max(*us / 1000.0, kMinLatencyMs), q.fraction});
    return points;
}

std::string load_description(const json::object& load) {
    std::string model = string_at(load, "model");
    std::string out = model == "open" && number_at(load, "rate")
                          ? "open model at " + fixed(*number_at(load, "rate"), 0) + " requests/s"
                          : model + " model";
    if (auto c = number_at(load, "connections")) out += ", " + fixed(*c, 0) + " connections";
    if (const json::value* k = load.if_contains("keepalive"); k != nullptr && k->is_bool())
        out += k->get_bool() ? ", keep-alive" : ", a new connection per request";
    if (auto d = number_at(load, "duration_s")) out += ", " + fixed(*d, *d == std::floor(*d) ? 0 : 1) + " s";
    return out;
}

std::string cdf_figure(const std::string& step, const std::vector<RepView>& reps) {
    std::vector<LineSeries> series;
    std::vector<LegendEntry> legend;
    std::string description;
    double lo = 1e300;
    double hi = 0;
    for (const auto& r : reps) {
        const json::object* load = r.ok ? step_load(r, step) : nullptr;
        if (load == nullptr) continue;
        auto points = cdf_points(*load);
        if (points.empty()) continue;
        if (description.empty()) description = load_description(*load);
        for (const auto& p : points) {
            lo = std::min(lo, p.x);
            hi = std::max(hi, p.x);
        }
        series.push_back({r.style, std::move(points), true});
        legend.push_back({r.style, r.label});
    }
    std::string out = "<figure><figcaption><strong>" + html_escape(step) + "</strong>";
    if (!description.empty()) out += ": " + html_escape(description);
    out += "</figcaption>";
    if (series.empty())
        return out + "<p class=\"note\">No finished repetition has latencies for this step.</p></figure>";

    Legend leg = render_legend(legend, kPanelLeft, 0, kChartWidth - kPanelLeft - kPanelRight);
    Panel p;
    p.x = log_axis(lo, hi);
    p.y = linear_axis(0, 1, 5);
    p.x_title = "latency (ms, log scale)";
    p.y_title = "fraction of requests";
    p.refs = {{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}};
    p.series = std::move(series);
    const Frame f{kPanelLeft, leg.height + 14, kChartWidth - kPanelLeft - kPanelRight, 260};
    std::string body = leg.svg + render_panel(p, f);
    out += svg_element(kChartWidth, f.top + f.height + kPanelBelow, "latency CDF of step " + step, body);
    return out + "</figure>";
}

// ---- time series ----------------------------------------------------------

struct RepSamples {
    const RepView* view = nullptr;
    SampleSeries series;
    std::string problem;  // why there is nothing to draw; empty: draw `series`
};

std::vector<Band> windows_of(const json::object& rep) {
    std::vector<Band> bands;
    if (const json::object* w = object_at(rep, rundir::rep_key::kWindows))
        for (const auto& [name, v] : *w) {
            if (!v.is_object()) continue;
            auto t0 = number_at(v.get_object(), "t0_s");
            auto t1 = number_at(v.get_object(), "t1_s");
            if (t0 && t1) bands.push_back({*t0, *t1, std::string(name)});
        }
    return bands;
}

std::string series_figure(const RepSamples& s, const Axis& x, const Axis& mem_y, const Axis& cpu_y) {
    const RepView& r = *s.view;
    std::string out = "<figure><figcaption><strong>" + html_escape(r.label) + "</strong> (" + html_escape(r.key) + ")";
    if (!r.ok) {
        out += ", " + html_escape(string_at(*r.rep, rundir::rep_key::kStatus));
        if (auto reason = string_at(*r.rep, rundir::rep_key::kReason); !reason.empty()) out += ": " + html_escape(reason);
    }
    out += "</figcaption>";
    if (!s.problem.empty()) return out + "<p class=\"note\">" + html_escape(s.problem) + "</p></figure>";

    const double plot_w = kChartWidth - kPanelLeft - 16;
    Legend leg = render_legend({{r.style, r.label}, {{kBandFill, ""}, "measured window of a step", true}}, kPanelLeft,
                               0, plot_w);
    Panel mem;
    mem.x = x;
    mem.y = mem_y;
    mem.y_title = "memory.current (MiB)";
    mem.bands = windows_of(*r.rep);
    mem.series = {{r.style, s.series.memory_mib, false}};
    Panel cpu;
    cpu.x = x;
    cpu.y = cpu_y;
    cpu.x_title = "time since the sampler started (s)";
    cpu.y_title = "CPU (% of one CPU)";
    cpu.bands = mem.bands;
    for (auto& b : cpu.bands) b.label.clear();
    cpu.series = {{r.style, s.series.cpu_pct, false}};
    const Frame fm{kPanelLeft, leg.height + kPanelAbove, plot_w, 160};
    const Frame fc{kPanelLeft, fm.top + fm.height + 34, plot_w, 160};
    std::string body = leg.svg + render_panel(mem, fm) + render_panel(cpu, fc);
    out += svg_element(kChartWidth, fc.top + fc.height + kPanelBelow, "memory and CPU over time, " + r.label, body);
    return out + "</figure>";
}

}  // namespace

std::vector<std::string> step_names_in(const std::vector<RepView>& reps, std::string_view key) {
    std::vector<std::string> steps;
    for (const auto& r : reps)
        if (const json::object* by_step = r.ok ? object_at(*r.rep, key) : nullptr)
            for (const auto& [name, v] : *by_step)
                if (std::find(steps.begin(), steps.end(), std::string(name)) == steps.end()) steps.emplace_back(name);
    return steps;
}

namespace {

// The steps whose loads are an HTTP load generator's (latency_us): tunnels,
// revocations and accounting record loads of their own kinds.
std::vector<std::string> http_load_steps(const std::vector<RepView>& reps) {
    std::vector<std::string> steps;
    for (const auto& s : step_names_in(reps, rundir::rep_key::kLoads))
        for (const auto& r : reps)
            if (const json::object* load = r.ok ? step_load(r, s) : nullptr; load && load->contains("latency_us")) {
                steps.push_back(s);
                break;
            }
    return steps;
}

}  // namespace

std::string latency_section(const std::vector<RepView>& reps) {
    const std::vector<std::string> steps = http_load_steps(reps);
    std::string out = "<section id=\"latency\"><h2>Latency distribution per load step</h2>";
    if (steps.empty()) return out + "<p class=\"note\">No finished repetition ran an HTTP load step.</p></section>";
    out += "<p class=\"note\">Cumulative distribution of the latency of all responses (from the intended send time "
           "under an open model), one line per finished repetition. Points: min, p50, p75, p90, p99, p99.9, p99.99 "
           "and max of the load generator's histogram; the lines between them are interpolated.</p>";
    for (const auto& s : steps) out += cdf_figure(s, reps);
    return out + "</section>";
}

std::string time_series_section(const std::vector<RepView>& reps, const std::filesystem::path& run_dir) {
    rundir::RunDirectory dir(run_dir);
    std::vector<RepSamples> all;
    double t_max = 0;
    double mem_max = 0;
    double cpu_max = 0;
    for (const auto& r : reps) {
        RepSamples s;
        s.view = &r;
        const auto file = dir.samples_file(r.key);
        try {
            s.series = parse_sample_series(rundir::RunDirectory::read_file(file), file.string());
            if (s.series.memory_mib.size() < 2 && s.series.cpu_pct.empty())
                s.problem = s.series.rows == 1 ? std::string("Only 1 sample: nothing to draw.")
                                               : "Only " + std::to_string(s.series.rows) + " samples: nothing to draw.";
        } catch (const std::exception& e) {
            s.problem = std::filesystem::exists(file) ? std::string(e.what())
                                                      : "No samples file (" + file.string() + ").";
        }
        if (s.problem.empty()) {
            for (const auto& p : s.series.memory_mib) {
                t_max = std::max(t_max, p.x);
                mem_max = std::max(mem_max, p.y);
            }
            for (const auto& p : s.series.cpu_pct) {
                t_max = std::max(t_max, p.x);
                cpu_max = std::max(cpu_max, p.y);
            }
        }
        all.push_back(std::move(s));
    }
    std::string out = "<section id=\"timeseries\"><h2>Memory and CPU over time</h2>";
    if (all.empty()) return out + "<p class=\"note\">No repetitions.</p></section>";
    out += "<p class=\"note\">One figure per repetition from its samples; all figures share their scales. CPU is "
           "the growth of the box's cpu_usage_us between consecutive samples, in percent of one CPU.</p>";
    const Axis x = linear_axis(0, t_max, 10);
    const Axis mem_y = linear_axis(0, mem_max, 4);
    const Axis cpu_y = linear_axis(0, cpu_max, 4);
    for (const auto& s : all) out += series_figure(s, x, mem_y, cpu_y);
    return out + "</section>";
}

}  // namespace stand::report
