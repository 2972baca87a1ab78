// fleetrun/merged_load: generators' results as one. Counters, status counts,
// errors and per-second series add up; the merged histograms are the
// union; a failed or saturated generator and a late start are warnings
// naming it. fleet.generators_merged checks the same on real hosts.
#include "fleetrun/merged_load.hpp"

#include <boost/json.hpp>

#include <doctest/doctest.h>

namespace json = boost::json;
using stand::fleetrun::GeneratorLoadResult;
using stand::fleetrun::GeneratorOutcome;

namespace {

GeneratorOutcome generator(const std::string& name, std::uint64_t completed, std::uint64_t shift_us,
                           std::int64_t actual_start_ns, std::int64_t offset_ns) {
    GeneratorOutcome g;
    g.name = name;
    g.clock.offset_ns = offset_ns;
    g.clock.uncertainty_ns = 20'000;
    g.exit_code = 0;
    g.result = json::parse(R"({"schema":"stand.load/1","requests":{"offered":)" + std::to_string(completed) +
                           R"(,"sent":)" + std::to_string(completed) + R"(,"completed":)" + std::to_string(completed) +
                           R"(,"errors":1,"unsent":0,"late":2,"stale_retries":0,"max_queue":)" + std::to_string(completed % 7) +
                           R"(},"throughput":{"requests_per_s":100.5},"status_counts":{"200":)" + std::to_string(completed) +
                           R"(},"errors":{"reset":1},"per_second":{"completed":[)" + std::to_string(completed - 1) +
                           R"(,1],"errors":[1,0],"slow":[0,0]},"start":{"actual_unix_ns":)" +
                           std::to_string(actual_start_ns) + R"(},"generator_saturated":false,"warnings":[]})")
                   .as_object();
    for (std::uint64_t i = 0; i < completed; ++i) {
        g.histograms.latency["all"].record(shift_us + i);
        g.histograms.service["all"].record(shift_us + i / 2);
    }
    return g;
}

}  // namespace

TEST_CASE("merged load: counts add up and the histograms are the union") {
    GeneratorLoadResult r;
    r.started = true;
    r.start_at_ns = 1'000'000'000;
    r.generators.push_back(generator("a", 100, 1000, 1'000'100'000, 0));
    r.generators.push_back(generator("b", 300, 5000, 1'000'300'000 + 50'000, 50'000));
    const auto merged = stand::fleetrun::merged_histograms(r);
    const auto out = stand::fleetrun::merged_load_json(r, merged);
    const auto& m = out.at("merged").as_object();
    CHECK(m.at("generators").to_number<int>() == 2);
    CHECK(m.at("requests").at("completed").to_number<int>() == 400);
    CHECK(m.at("requests").at("errors").to_number<int>() == 2);
    CHECK(m.at("requests").at("max_queue_per_generator").to_number<int>() == 6);  // the larger of 100 % 7 and 300 % 7
    CHECK(m.at("throughput").at("requests_per_s").to_number<double>() == doctest::Approx(201));
    CHECK(m.at("status_counts").at("200").to_number<int>() == 400);
    CHECK(m.at("per_second").at("completed").as_array() == json::array{398, 2});
    CHECK(m.at("latency_us").at("all").at("count").to_number<int>() == 400);
    CHECK(m.at("latency_us").at("all").at("min").to_number<int>() == 1000);
    CHECK(merged.latency.at("all").count() == 400);
    CHECK(merged.latency.at("all").max() >= 5299);
    // b's start on the controller's clock is its own minus its offset: 200 us after a's.
    CHECK(out.at("start").at("spread_us").to_number<int>() == 200);
    CHECK(out.at("warnings").as_array().empty());
}

TEST_CASE("merged load: a failed generator is left out and named, a saturated one and a late start are warnings") {
    GeneratorLoadResult r;
    r.started = true;
    r.generators.push_back(generator("a", 100, 1000, 1'000'000'000, 0));
    r.generators.push_back(generator("b", 50, 1000, 1'200'000'000, 0));
    r.generators[1].result["generator_saturated"] = true;
    r.generators.push_back(generator("c", 70, 1000, 1'000'000'000, 0));
    r.generators[2].problem = "Connection to 10.0.0.3 closed";
    const auto out = stand::fleetrun::merged_load_json(r, stand::fleetrun::merged_histograms(r));
    CHECK(out.at("merged").at("requests").at("completed").to_number<int>() == 150);
    CHECK(out.at("merged").at("generators").to_number<int>() == 2);
    const auto warnings = json::serialize(out.at("warnings"));
    CHECK(warnings.find("b: its generator was saturated") != std::string::npos);
    CHECK(warnings.find("c: Connection to 10.0.0.3 closed (the merged figures leave it out)") != std::string::npos);
    CHECK(warnings.find("started 200.0 ms apart") != std::string::npos);
}
