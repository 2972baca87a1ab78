// fleetrun/link_shaping: `stand load --link` plans as the user writes them,
// the qdisc each becomes (netem for delay and loss, tbf for a rate alone),
// and when a measured RTT is off the plan. fleet.generators_merged puts
// them on real interfaces of the test rig.
#include "fleetrun/link_shaping.hpp"
#include "fleetrun/remote_delay_line.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace std::chrono_literals;
using stand::fleetrun::parse_link_plan;
using stand::fleetrun::qdisc_args;
using stand::fleetrun::rtt_as_planned;

TEST_CASE("link plan: every part read, netem with the rate inside it") {
    const auto plan = parse_link_plan("rtt=50ms,jitter=5ms,loss=0.5%,rate=100mbit");
    CHECK(plan.rtt == 50ms);
    CHECK(plan.jitter == 5ms);
    CHECK(plan.loss_pct == doctest::Approx(0.5));
    REQUIRE(plan.rate_bits);
    CHECK(*plan.rate_bits == 100'000'000);
    CHECK(qdisc_args(plan) == std::vector<std::string>{"netem", "delay", "50000us", "5000us", "loss", "0.5%", "rate",
                                                         "100000000bit", "limit", "100000"});
}

TEST_CASE("link plan: a rate alone is tbf, with a burst of at least two packets") {
    CHECK(qdisc_args(parse_link_plan("rate=80kbit")) ==
          std::vector<std::string>{"tbf", "rate", "80000bit", "burst", "3028", "latency", "100ms"});
    CHECK(qdisc_args(parse_link_plan("rate=1gbit"))[4] == "1250000");
}

TEST_CASE("link plan: malformed plans are refused naming the part") {
    const std::pair<const char*, const char*> bad[] = {
        {"", "expected KEY=VALUE"},          {"rtt", "expected KEY=VALUE"},
        {"rtt=50ms,", "expected KEY=VALUE"}, {"delay=5ms", "unknown key 'delay'"},
        {"loss=2", "expected a percentage"}, {"loss=101%", "0%..100%"},
        {"rate=10", "kbit, mbit or gbit"},   {"rate=1kbit", "8kbit..1000gbit"},
        {"rtt=11s", "at most 10s"},          {"rtt=5ms,jitter=6ms", "more than the rtt"},
        {"jitter=1ms", "declare rtt, loss or rate"}, {"rtt=fast", "--link rtt"}};
    for (const auto& [text, why] : bad) {
        CAPTURE(text);
        try {
            (void)parse_link_plan(text);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).find(why) != std::string::npos);
        }
    }
}

TEST_CASE("link plan: the measured RTT is the plan on top of the one before, within 10 %, 2 jitters and 2 ms") {
    const auto plan = parse_link_plan("rtt=50ms");
    CHECK(rtt_as_planned(plan, 100, 50'100));
    CHECK(rtt_as_planned(plan, 100, 57'000));
    CHECK_FALSE(rtt_as_planned(plan, 100, 58'000));
    CHECK_FALSE(rtt_as_planned(plan, 100, 150));  // the delay is not there
    CHECK(rtt_as_planned(parse_link_plan("rtt=50ms,jitter=10ms"), 100, 75'000));
    CHECK(rtt_as_planned(parse_link_plan("rate=1mbit"), 300, 1'500));
    CHECK_FALSE(rtt_as_planned(parse_link_plan("rate=1mbit"), 300, 30'000));
}

TEST_CASE("link plan: without netem, stand's delay line takes the delay, jitter and loss, and tbf the rate") {
    using stand::fleetrun::delay_line_plan_text;
    const auto plan = parse_link_plan("rtt=50ms,jitter=5ms,loss=0.5%,rate=100mbit");
    CHECK(delay_line_plan_text(plan) == "rtt=50000us,jitter=5000us,loss=0.5%");
    CHECK(stand::fleetrun::rate_qdisc_args(*plan.rate_bits) == qdisc_args(parse_link_plan("rate=100mbit")));
    // What the delay line is given reads back as the same plan, less the rate.
    const auto back = parse_link_plan(delay_line_plan_text(plan));
    CHECK(back.rtt == plan.rtt);
    CHECK(back.jitter == plan.jitter);
    CHECK(back.loss_pct == doctest::Approx(plan.loss_pct));
    CHECK_FALSE(back.rate_bits);
    CHECK(delay_line_plan_text(parse_link_plan("loss=2%")) == "rtt=0us,loss=2%");
}
