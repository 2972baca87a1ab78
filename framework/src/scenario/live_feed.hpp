// What the engine feeds the live figures (live/live_figures.hpp) from: a
// load's progress and result, and the measured box's sampler.
#pragma once

#include "live/live_figures.hpp"
#include "load/load_engine.hpp"
#include "sampler/sampler.hpp"

#include <functional>
#include <string>

namespace stand::scenario {

// A load of step `step` as it begins.
live::LoadFigures load_begins(const std::string& step, const load::LoadSpec& spec);

// One progress call's figures added: the counts so far, the rate over the
// interval, the interval's latency.
void add_progress(live::LoadFigures& figures, const load::LoadProgress& progress, double rate);

// The load ended: its counts and latency as its result has them.
void set_result(live::LoadFigures& figures, const load::LoadResult& result);

// The box's CPU over about the last second (two sampler intervals when
// they are longer) and its memory now, read from
// `sampler` (which must outlive the source); null: a source that reads nothing.
std::function<live::BoxFigures()> box_source(const sampler::Sampler* sampler);

}  // namespace stand::scenario
