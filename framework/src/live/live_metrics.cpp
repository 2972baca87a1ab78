#include "live/live_metrics.hpp"

#include <string>
#include <utility>

namespace stand::live {
namespace {

MetricFamily family(std::string name, MetricType type, std::string unit, std::string help) {
    return {std::move(name), type, std::move(unit), std::move(help), {}};
}

MetricFamily one_value(std::string name, std::string unit, std::string help, MetricLabels labels, double value,
                       MetricType type = MetricType::gauge) {
    auto f = family(std::move(name), type, std::move(unit), std::move(help));
    f.samples.push_back({std::move(labels), value, ""});
    return f;
}

void add_run(std::vector<MetricFamily>& out, const LiveSnapshot& s) {
    out.push_back(one_value("stand_run", "", "The run; its scenario's name in the label.", {{"scenario", s.scenario}}, 1,
                            MetricType::info));
    out.push_back(one_value("stand_run_repetitions_planned", "",
                            "Repetitions the run plans (with adaptive repetitions: at most this many).", {},
                            static_cast<double>(s.planned)));
    auto finished = family("stand_run_repetitions_finished", MetricType::counter, "",
                           "Repetitions finished, by status: ok, failed, or skipped (finished by an earlier run, --resume).");
    finished.samples.push_back({{{"status", "ok"}}, static_cast<double>(s.ok), ""});
    finished.samples.push_back({{{"status", "failed"}}, static_cast<double>(s.failed), ""});
    finished.samples.push_back({{{"status", "skipped"}}, static_cast<double>(s.skipped), ""});
    out.push_back(std::move(finished));
    if (s.eta_s)
        out.push_back(one_value("stand_run_eta_seconds", "seconds",
                                "Time left, from the mean duration of the repetitions measured so far.", {}, *s.eta_s));
    if (s.position == 0) return;
    const MetricLabels rep{{"plugin", s.plugin}, {"repetition", std::to_string(s.repetition)}};
    out.push_back(one_value("stand_run_repetition", "",
                            "The repetition running or last run: its place in the run (1-based, of "
                            "stand_run_repetitions_planned); its plugin and that plugin's repetition number in the labels.",
                            rep, static_cast<double>(s.position)));
    if (s.step) {
        MetricLabels labels = rep;
        labels.insert(labels.end(), {{"phase", s.step->phase}, {"step", s.step->name}, {"kind", s.step->kind}});
        out.push_back(one_value("stand_step", "", "The step running: its phase, name and kind in the labels.",
                                std::move(labels), 1, MetricType::info));
    }
}

void add_latency(std::vector<MetricFamily>& out, const LoadFigures& l, const MetricLabels& labels) {
    auto latency = family("stand_load_latency_seconds", MetricType::summary, "seconds",
                          "Response latency: the quantiles (0.5, 0.95, 0.99, and 1 for the maximum) of the last "
                          "interval's responses (about 1 s; none when none came), _sum and _count since the load began.");
    if (l.recent) {
        const std::pair<const char*, double> quantiles[] = {
            {"0.5", l.recent->p50_s}, {"0.95", l.recent->p95_s}, {"0.99", l.recent->p99_s}, {"1", l.recent->max_s}};
        for (const auto& [q, v] : quantiles) {
            MetricLabels with = labels;
            with.emplace_back("quantile", q);
            latency.samples.push_back({std::move(with), v, ""});
        }
    }
    latency.samples.push_back({labels, l.latency_sum_s, "_sum"});
    latency.samples.push_back({labels, static_cast<double>(l.latency_count), "_count"});
    out.push_back(std::move(latency));
    out.push_back(one_value("stand_load_latency_max_seconds", "seconds", "The slowest response since the load began.",
                            labels, l.latency_max_s));
}

void add_load(std::vector<MetricFamily>& out, const LiveSnapshot& s) {
    if (!s.load) return;
    const LoadFigures& l = *s.load;
    const MetricLabels labels{{"plugin", s.plugin}, {"repetition", std::to_string(s.repetition)}, {"step", l.step}};
    out.push_back(one_value("stand_load_running", "", "1 while the load step sends, 0 once it ended.", labels,
                            l.running ? 1 : 0));
    out.push_back(one_value("stand_load_elapsed_seconds", "seconds", "Time since the load began.", labels, l.elapsed_s));
    out.push_back(one_value("stand_load_duration_seconds", "seconds", "The load's planned duration.", labels, l.planned_s));
    if (l.offered_rate)
        out.push_back(one_value("stand_load_offered_rate", "",
                                "Requests per second the open model plans to send (its rate); absent in the closed model.",
                                labels, *l.offered_rate));
    out.push_back(one_value("stand_load_achieved_rate", "",
                            "Responses per second over the last interval (about 1 s).", labels, l.achieved_rate));
    out.push_back(one_value("stand_load_sent", "", "Requests sent since the load began.", labels,
                            static_cast<double>(l.sent), MetricType::counter));
    out.push_back(one_value("stand_load_completed", "",
                            "Responses received (any status) since the load began; at its end the load's completed count.",
                            labels, static_cast<double>(l.completed), MetricType::counter));
    out.push_back(one_value("stand_load_errors", "",
                            "Requests that got no response (connection, timeout, protocol errors) since the load began.",
                            labels, static_cast<double>(l.errors), MetricType::counter));
    add_latency(out, l, labels);
}

void add_box(std::vector<MetricFamily>& out, const LiveSnapshot& s) {
    if (!s.box) return;
    if (s.box->cpu_cores)
        out.push_back(one_value("stand_box_cpu_cores", "",
                                "CPU the measured box used over about the last second (two sampler intervals when they are longer), in cores (1 = one CPU busy).",
                                {}, *s.box->cpu_cores));
    if (s.box->memory_bytes)
        out.push_back(one_value("stand_box_memory_bytes", "bytes", "The measured box's memory now (cgroup memory.current).",
                                {}, static_cast<double>(*s.box->memory_bytes)));
}

}  // namespace

std::vector<MetricFamily> live_metric_families(const LiveSnapshot& snapshot) {
    std::vector<MetricFamily> out;
    add_run(out, snapshot);
    add_load(out, snapshot);
    add_box(out, snapshot);
    return out;
}

}  // namespace stand::live
