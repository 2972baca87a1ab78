#include "live/live_figures.hpp"

#include <utility>

namespace stand::live {

LiveFigures::LiveFigures(std::string scenario) {
    state_.scenario = std::move(scenario);
}

void LiveFigures::set_planned(std::size_t planned) {
    std::lock_guard lock(mutex_);
    state_.planned = planned;
}

void LiveFigures::repetition_started(std::size_t position, std::string plugin, unsigned repetition,
                                     std::optional<double> eta_s) {
    std::lock_guard lock(mutex_);
    state_.position = position;
    state_.plugin = std::move(plugin);
    state_.repetition = repetition;
    state_.eta_s = eta_s;
    state_.step.reset();
    state_.load.reset();
}

void LiveFigures::repetition_finished(std::string_view status) {
    std::lock_guard lock(mutex_);
    if (status == "ok") ++state_.ok;
    else if (status == "skipped") ++state_.skipped;
    else if (status != "interrupted") ++state_.failed;
    state_.step.reset();
    if (state_.load) state_.load->running = false;
}

void LiveFigures::step_started(StepFigures step) {
    std::lock_guard lock(mutex_);
    state_.step = std::move(step);
}

void LiveFigures::load_update(LoadFigures load) {
    std::lock_guard lock(mutex_);
    state_.load = std::move(load);
}

void LiveFigures::set_box_source(std::function<BoxFigures()> source) {
    std::lock_guard lock(mutex_);
    box_ = std::move(source);
}

LiveSnapshot LiveFigures::snapshot() const {
    std::lock_guard lock(mutex_);
    LiveSnapshot copy = state_;
    if (box_) copy.box = box_();
    return copy;
}

void LiveFigures::listener_counted(const ListenerLoad& more) {
    std::lock_guard lock(mutex_);
    listener_.add(more);
}

ListenerLoad LiveFigures::listener_load() const {
    std::lock_guard lock(mutex_);
    return listener_;
}

BoxSourceScope::BoxSourceScope(LiveFigures* figures, std::function<BoxFigures()> source) : figures_(figures) {
    if (figures_) figures_->set_box_source(std::move(source));
}

BoxSourceScope::~BoxSourceScope() {
    if (figures_) figures_->set_box_source({});
}

}  // namespace stand::live
