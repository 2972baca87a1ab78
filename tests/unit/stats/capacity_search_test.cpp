// The capacity search's schedule and its ends (stats/capacity_search.hpp),
// against simulated systems whose limit is known.
#include "stats/capacity_search.hpp"

#include <doctest/doctest.h>

#include <functional>

using namespace stand::stats;

namespace {

CapacityPlan plan(double from, double to) {
    return {from, to, 2, 5, {{"p95_ms", 50}, {"error_pct", 1}}};
}

// A system whose p95 jumps past the objective above `limit` req/s; the
// generator saturates above `generator_max`; `disturb(rate, attempt)` names a
// disturbance.
CapacitySearch run(CapacityPlan p, double limit, double generator_max = 1e12,
                   const std::function<std::string(double, int)>& disturb = {}) {
    CapacitySearch s(p);
    std::map<double, int> attempts;
    for (int guard = 0; auto rate = s.next_rate(); ++guard) {
        REQUIRE(guard < 100);
        LevelOutcome level;
        level.offered = *rate;
        level.values = {{"p95_ms", *rate <= limit ? 5.0 : 400.0}, {"error_pct", 0}};
        if (*rate > generator_max) level.generator_limited = "its threads ran 97 % of the time";
        if (disturb) level.disturbed = disturb(*rate, attempts[*rate]++);
        s.record(level);
    }
    return s;
}

}  // namespace

TEST_CASE("capacity search: steps up by the factor, then bisects to within the resolution") {
    const auto s = run(plan(10, 100000), 1234);
    CHECK(s.end() == CapacityEnd::limit_found);
    REQUIRE(s.best());
    REQUIRE(s.first_failed());
    CHECK(*s.best() <= 1234);
    CHECK(*s.first_failed() > 1234);
    CHECK(*s.first_failed() / *s.best() <= 1.05);
    CHECK(s.broke() == "p95_ms 400 > 50");
    // 10, 20, ..., 1280 (8 levels up), then bisection from [640, 1280].
    CHECK(s.levels()[7].first.offered == doctest::Approx(1280));
    CHECK(s.levels().size() <= 8 + 5);
    CHECK(s.summary().starts_with("limit found: met up to "));
}

TEST_CASE("capacity search: the ends of the range are said, not taken for a limit") {
    const auto top = run(plan(10, 500), 1e9);
    CHECK(top.end() == CapacityEnd::top_reached);
    CHECK(*top.best() == 500);  // 10 ... 320, then the top itself
    CHECK_FALSE(top.first_failed());
    CHECK(top.summary().find("the limit is above it") != std::string::npos);

    const auto low = run(plan(10, 500), 5);
    CHECK(low.end() == CapacityEnd::lowest_failed);
    CHECK_FALSE(low.best());
    CHECK(low.levels().size() == 1);
}

TEST_CASE("capacity search: a saturated generator ends it and is never the system's limit") {
    const auto s = run(plan(10, 100000), 5000, 700);
    CHECK(s.end() == CapacityEnd::generator_saturated);
    CHECK(*s.best() == 640);
    CHECK_FALSE(s.first_failed());  // 1280 saturated the generator: not a failure of the system
    CHECK(s.summary().starts_with("generator saturated at 1280/s (its threads ran 97 % of the time): met up to 640/s"));
}

TEST_CASE("capacity search: a disturbed failure runs once more, twice ends the search") {
    const auto once = run(plan(10, 100000), 1234, 1e12,
                          [](double rate, int attempt) { return rate == 1280 && attempt == 0 ? "steal 7 %" : ""; });
    CHECK(once.end() == CapacityEnd::limit_found);
    CHECK(once.levels()[7].first.offered == 1280);
    CHECK(once.levels()[8].first.offered == 1280);
    CHECK(*once.first_failed() > 1234);

    const auto twice = run(plan(10, 100000), 1234, 1e12,
                           [](double rate, int) { return rate == 1280 ? "steal 7 %" : ""; });
    CHECK(twice.end() == CapacityEnd::disturbed);
    CHECK(*twice.best() == 640);
    CHECK_FALSE(twice.first_failed());  // a disturbed failure is not the system's
    CHECK(twice.summary().starts_with("the machine disturbed the level at 1280/s twice (steal 7 %): met up to 640/s"));
}

TEST_CASE("capacity search: a level met despite a disturbance is met, and runs once") {
    const auto s = run(plan(10, 100000), 1234, 1e12, [](double, int) { return "steal 7 %"; });
    CHECK(*s.best() == 640);  // every met level counted
    CHECK(s.end() == CapacityEnd::disturbed);
    CHECK(s.levels().size() == 9);  // 10 ... 640 once each, the failure at 1280 twice
    CHECK(s.levels()[6].first.disturbed == "steal 7 %");
    CHECK(s.levels()[6].second.met);
    CHECK(s.summary().ends_with("; no limit is stated; 7 of the levels met despite a disturbance"));
}

TEST_CASE("capacity search: a value the level did not measure fails it, a bad plan is refused") {
    LevelOutcome level;
    level.values = {{"p95_ms", 3}};
    const auto v = judge_level(level, {{"p95_ms", 50}, {"error_pct", 1}});
    CHECK_FALSE(v.met);
    CHECK(v.broke == "error_pct not measured");
    CHECK_THROWS_AS(CapacitySearch({10, 5, 2, 5, {{"p95_ms", 1}}}), std::invalid_argument);
    CHECK_THROWS_AS(CapacitySearch({10, 50, 1, 5, {{"p95_ms", 1}}}), std::invalid_argument);
    CHECK_THROWS_AS(CapacitySearch({10, 50, 2, 5, {}}), std::invalid_argument);
}

TEST_CASE("capacity search: a level with no response ends it as target down, never a limit") {
    CapacitySearch s({20, 1000, 2, 10, {{"p95_ms", 50}, {"error_pct", 1}}});
    const auto level = [](double rate, double p95, double errors, std::string unanswered = {}) {
        LevelOutcome l;
        l.offered = rate;
        if (unanswered.empty()) l.values = {{"p95_ms", p95}, {"error_pct", errors}};
        l.unanswered = std::move(unanswered);
        return l;
    };
    s.record(level(20, 3, 0));
    s.record(level(40, 3, 0));
    s.record(level(80, 3, 40));  // the target died during this level
    CHECK(*s.next_rate() < 80);
    s.record(level(*s.next_rate(), 0, 0, "85 requests, no response: connect refused 85"));
    CHECK(s.end() == CapacityEnd::target_down);
    CHECK_FALSE(s.next_rate());
    CHECK(s.levels().back().second.broke == "no response");
    CHECK(s.summary() == "target down at 56.6/s (85 requests, no response: connect refused 85): met up to 40/s, "
                         "not at 80/s (error_pct 40 > 1) before it; no limit is stated");
    CHECK(capacity_end_name(s.end()) == "target down");
}
