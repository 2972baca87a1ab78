#include "stats/capacity_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace stand::stats {
namespace {

std::string rate_text(double rate) {
    char text[48];
    std::snprintf(text, sizeof text, rate >= 100 ? "%.0f/s" : "%.3g/s", rate);
    return text;
}

std::string number_text(double v) {
    char text[48];
    std::snprintf(text, sizeof text, "%.4g", v);
    return text;
}

}  // namespace

LevelVerdict judge_level(const LevelOutcome& level, const std::vector<ObjectiveLimit>& objective) {
    for (const auto& limit : objective) {
        const auto it = level.values.find(limit.metric);
        if (it == level.values.end() || !std::isfinite(it->second)) return {false, limit.metric + " not measured"};
        if (it->second > limit.at_most)
            return {false, limit.metric + " " + number_text(it->second) + " > " + number_text(limit.at_most)};
    }
    return {true, {}};
}

CapacitySearch::CapacitySearch(CapacityPlan plan) : plan_(std::move(plan)) {
    if (!(plan_.from > 0) || !(plan_.to >= plan_.from) || !(plan_.factor > 1) || !(plan_.resolution_pct > 0) ||
        plan_.objective.empty())
        throw std::invalid_argument("a capacity search needs 0 < from <= to, factor > 1, resolution > 0 and an objective");
    next_ = plan_.from;
}

std::optional<double> CapacitySearch::next_rate() const { return end_ == CapacityEnd::running ? next_ : std::nullopt; }

void CapacitySearch::record(const LevelOutcome& level) {
    if (end_ != CapacityEnd::running) throw std::logic_error("capacity search: a level recorded after the end");
    const LevelVerdict verdict = judge_level(level, plan_.objective);
    levels_.emplace_back(level, verdict);
    if (!level.unanswered.empty()) {
        levels_.back().second = {false, "no response"};
        end_ = CapacityEnd::target_down;
        return;
    }
    if (!level.generator_limited.empty()) {
        end_ = CapacityEnd::generator_saturated;
        return;
    }
    // A disturbance only slows a level down (the latency counts from the intended send), so a level met
    // despite one is met; only a failure may be the disturbance's and is run once more.
    if (!level.disturbed.empty() && !verdict.met) {
        if (retried_) end_ = CapacityEnd::disturbed;
        retried_ = true;  // the same rate once more
        return;
    }
    retried_ = false;
    if (verdict.met) {
        best_ = level.offered;
        if (first_failed_) bisect();
        else step_up(level.offered);
        return;
    }
    first_failed_ = level.offered;
    broke_ = verdict.broke;
    if (!best_) end_ = CapacityEnd::lowest_failed;
    else bisect();
}

void CapacitySearch::step_up(double met_rate) {
    if (met_rate >= plan_.to) {
        end_ = CapacityEnd::top_reached;
        return;
    }
    next_ = std::min(met_rate * plan_.factor, plan_.to);
}

void CapacitySearch::bisect() {
    if (*first_failed_ / *best_ - 1 <= plan_.resolution_pct / 100) {
        end_ = CapacityEnd::limit_found;
        return;
    }
    next_ = std::sqrt(*best_ * *first_failed_);
}

std::string CapacitySearch::summary() const {
    const auto despite = std::count_if(levels_.begin(), levels_.end(),
                                       [](const auto& l) { return l.second.met && !l.first.disturbed.empty(); });
    const std::string note = despite == 0 ? "" : "; " + std::to_string(despite) + " of the levels met despite a disturbance";
    return summary_of_end() + note;
}

std::string CapacitySearch::summary_of_end() const {
    const std::string met = best_ ? "met up to " + rate_text(*best_) : std::string("met at no level");
    const std::string failed = first_failed_ ? ", not at " + rate_text(*first_failed_) + " (" + broke_ + ")" : "";
    switch (end_) {
        case CapacityEnd::running:
            return "searching: " + met + failed;
        case CapacityEnd::limit_found:
            return "limit found: " + met + failed + ", within " + number_text(plan_.resolution_pct) + " %";
        case CapacityEnd::top_reached:
            return "the top of the range met the objective: " + met + "; the limit is above it";
        case CapacityEnd::lowest_failed:
            return "the lowest rate failed the objective: " + met + failed + "; the limit is below it";
        case CapacityEnd::generator_saturated:
            return "generator saturated at " + rate_text(levels_.back().first.offered) + " (" +
                   levels_.back().first.generator_limited + "): " + met + failed +
                   "; the system's limit is not known beyond that";
        case CapacityEnd::target_down:
            return "target down at " + rate_text(levels_.back().first.offered) + " (" + levels_.back().first.unanswered +
                   "): " + met + failed + " before it; no limit is stated";
        case CapacityEnd::disturbed:
            return "the machine disturbed the level at " + rate_text(levels_.back().first.offered) + " twice (" +
                   levels_.back().first.disturbed + "): " + met + failed + "; no limit is stated";
    }
    return {};
}

std::string capacity_end_name(CapacityEnd end) {
    switch (end) {
        case CapacityEnd::running: return "running";
        case CapacityEnd::limit_found: return "limit found";
        case CapacityEnd::top_reached: return "top reached";
        case CapacityEnd::lowest_failed: return "lowest failed";
        case CapacityEnd::generator_saturated: return "generator saturated";
        case CapacityEnd::disturbed: return "disturbed";
        case CapacityEnd::target_down: return "target down";
    }
    return "?";
}

}  // namespace stand::stats
