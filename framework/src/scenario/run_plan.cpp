#include "scenario/run_plan.hpp"

#include <numeric>
#include <random>

namespace stand::scenario {

std::vector<PlannedRep> make_run_plan(const Scenario& s) {
    std::vector<PlannedRep> plan;
    const std::size_t n = s.plugins.size();
    for (std::uint32_t rep = 1; rep <= s.repetitions; ++rep) {
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        if (s.order.mode == OrderMode::kRotate && n > 0) {
            std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>((rep - 1) % n), order.end());
        } else if (s.order.mode == OrderMode::kShuffle) {
            // Fisher-Yates by hand: std::shuffle's sequence differs between standard libraries.
            std::mt19937_64 rng(s.order.seed + rep);
            for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
        }
        for (std::size_t idx : order)
            plan.push_back({rep, idx, s.plugins[idx].label + "_r" + std::to_string(rep)});
    }
    return plan;
}

}  // namespace stand::scenario
