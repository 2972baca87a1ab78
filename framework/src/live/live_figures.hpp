// The run's live figures, structured (stand run --metrics-listen): what the
// run is doing, the load step's rates, counts and latency as it runs, and
// the measured box's CPU and memory. One owner: the engine and its steps
// write, the metrics listener reads a snapshot; the listener counts what
// scrapers asked of it, which a repetition reads. Every member is thread-safe.
#pragma once

#include "live/listener_load.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace stand::live {

// Latency in seconds over some set of responses.
struct LatencyQuantiles {
    double p50_s = 0, p95_s = 0, p99_s = 0, max_s = 0;
};

// One load as it runs (and, after it ended, as it ended, until the next).
struct LoadFigures {
    std::string step;                     // the step's name
    bool running = true;
    double elapsed_s = 0, planned_s = 0;  // since the load began; its planned duration
    std::optional<double> offered_rate;   // the open model's planned rate (requests/s); closed: none
    double achieved_rate = 0;             // responses/s over the last interval (about 1 s)
    std::uint64_t sent = 0, completed = 0, errors = 0;  // since the load began
    std::optional<LatencyQuantiles> recent;              // the last interval's responses; none: no response
    std::uint64_t latency_count = 0;                     // since the load began
    double latency_sum_s = 0, latency_max_s = 0;
};

struct BoxFigures {
    std::optional<double> cpu_cores;             // CPU seconds per second over about the last second
    std::optional<std::uint64_t> memory_bytes;   // the box's memory now (cgroup memory.current)
};

struct StepFigures {
    std::string phase, name, kind;
};

struct LiveSnapshot {
    std::string scenario;
    std::size_t planned = 0;  // repetitions planned (adaptive: at most)
    std::size_t ok = 0, failed = 0, skipped = 0;  // skipped: finished by an earlier run (--resume)
    std::optional<double> eta_s;
    // The repetition running: its place in the run (1-based), its plugin's
    // label and that plugin's repetition number.
    std::size_t position = 0;
    std::string plugin;
    unsigned repetition = 0;
    std::optional<StepFigures> step;
    std::optional<LoadFigures> load;
    std::optional<BoxFigures> box;
};

class LiveFigures {
public:
    explicit LiveFigures(std::string scenario);

    void set_planned(std::size_t planned);
    void repetition_started(std::size_t position, std::string plugin, unsigned repetition, std::optional<double> eta_s);
    // status: the repetition's status word (ok, failed, interrupted), or
    // "skipped" for one an earlier run finished.
    void repetition_finished(std::string_view status);
    void step_started(StepFigures step);
    void load_update(LoadFigures load);
    // The current repetition's box, read at every snapshot; {} clears it.
    void set_box_source(std::function<BoxFigures()> source);

    LiveSnapshot snapshot() const;

    // The listener's own load (metrics_server.cpp): it adds, a repetition
    // reads it before and after (scenario/listener_note.hpp).
    void listener_counted(const ListenerLoad& more);
    ListenerLoad listener_load() const;

private:
    mutable std::mutex mutex_;
    LiveSnapshot state_;
    ListenerLoad listener_;
    std::function<BoxFigures()> box_;
};

// Holds a box source for a scope: the source reads the sampler of one
// repetition, which must not outlive it.
class BoxSourceScope {
public:
    BoxSourceScope(LiveFigures* figures, std::function<BoxFigures()> source);
    ~BoxSourceScope();
    BoxSourceScope(const BoxSourceScope&) = delete;
    BoxSourceScope& operator=(const BoxSourceScope&) = delete;

private:
    LiveFigures* figures_;
};

}  // namespace stand::live
