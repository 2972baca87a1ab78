// The capacity search (the `capacity` step, scenarios/README.md): the
// highest offered rate whose level meets an objective. The rate goes up by
// `factor` from `from` until a level fails the objective (or `to` is
// reached), then is bisected (geometrically) between the last level that met
// it and the first that did not until they are within `resolution_pct`.
// A level where the generator could not keep the rate (it ran out of CPU, or
// sent late with a connection free) ends the search: what failed there may
// be the generator's limit, never reported as the system's. A
// level the machine disturbed (steal, another load) that failed is run once
// more, and a second disturbed failure at that rate ends the search too; one
// that met the objective despite the disturbance is met (a disturbance only
// makes a level slower). A level with no response at all ends the search as
// "target down": a dead system has no limit to find.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stand::stats {

// A limit a level's value must not exceed ("p95_ms" at most 500).
struct ObjectiveLimit {
    std::string metric;
    double at_most = 0;
};

struct CapacityPlan {
    double from = 0;            // the first level's rate, > 0
    double to = 0;              // the highest rate tried, >= from
    double factor = 2;          // > 1
    double resolution_pct = 5;  // > 0
    std::vector<ObjectiveLimit> objective;  // at least one
};

struct LevelOutcome {
    double offered = 0;                   // the rate the level asked for
    std::map<std::string, double> values;  // every objective metric the level measured
    std::string generator_limited;        // non-empty: how the generator failed to keep the rate
    std::string disturbed;                // non-empty: how the machine disturbed the level
    std::string unanswered;               // non-empty: no request of the level was answered, and why
};

enum class CapacityEnd {
    running,
    limit_found,          // best and first_failed within the resolution
    top_reached,          // `to` met the objective: the limit is above it
    lowest_failed,        // `from` failed already: the limit is below it
    generator_saturated,  // the generator could not keep a rate: the limit is at least best
    disturbed,            // the machine disturbed one rate twice
    target_down,          // a level had no response at all
};

struct LevelVerdict {
    bool met = false;
    std::string broke;  // the first limit not met: "p95_ms 812 > 500"; a missing value: "p95_ms not measured"
};

// Whether `level` meets `objective`.
LevelVerdict judge_level(const LevelOutcome& level, const std::vector<ObjectiveLimit>& objective);

class CapacitySearch {
public:
    // std::invalid_argument when the plan breaks a bound above.
    explicit CapacitySearch(CapacityPlan plan);

    // The next level's rate; none once the search ended.
    std::optional<double> next_rate() const;
    // The outcome of the level run at next_rate().
    void record(const LevelOutcome& level);

    CapacityEnd end() const noexcept { return end_; }
    std::optional<double> best() const noexcept { return best_; }                  // the highest rate that met it
    std::optional<double> first_failed() const noexcept { return first_failed_; }  // the lowest that did not
    const std::string& broke() const noexcept { return broke_; }                   // what broke at first_failed
    // Every level in the order run, each with its verdict.
    const std::vector<std::pair<LevelOutcome, LevelVerdict>>& levels() const noexcept { return levels_; }
    // One line: "limit found: met up to 480/s, not at 510/s (p95_ms 812 > 500), within 5 %", and how many
    // levels met the objective despite a disturbance.
    std::string summary() const;

private:
    std::string summary_of_end() const;
    void step_up(double met_rate);
    void bisect();

    CapacityPlan plan_;
    std::optional<double> next_;
    std::optional<double> best_, first_failed_;
    std::string broke_, ended_because_;
    bool retried_ = false;  // the level at next_ was disturbed once
    CapacityEnd end_ = CapacityEnd::running;
    std::vector<std::pair<LevelOutcome, LevelVerdict>> levels_;
};

std::string capacity_end_name(CapacityEnd end);  // "limit found", "generator saturated", ...

}  // namespace stand::stats
