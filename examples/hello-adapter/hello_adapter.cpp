// hello: the smallest useful stand plugin. A self-timed probe with one job,
// "timer-slack": it asks the host's clock to sleep `sleep_us` again and again
// and reports how much longer than asked each sleep took (timer slack and
// scheduler latency of this machine).
#include <stand/stand.hpp>

#include <algorithm>
#include <vector>

namespace {

using stand::cpp::Error;
namespace json = boost::json;

// The config, declared once: the constructor reads it and the descriptor's
// JSON Schema is written from it (stand/cpp/config_spec.hpp).
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        s.integer("sleeps", "how many sleeps one run measures").range(1, 100000).by_default(200);
        s.integer("sleep_us", "how long each sleep asks for, in microseconds").range(1, 1000000).by_default(1000);
        return s;
    }();
    return spec;
}

class Hello : public stand::cpp::Instance, public stand::cpp::Probe {
public:
    Hello(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        auto cfg = config_spec().read(config);
        sleeps_ = cfg.integer("sleeps");
        sleep_us_ = cfg.integer("sleep_us");
        cfg.finish();
    }

    json::array list_jobs() override {
        return {json::object{{"id", "timer-slack"},
                             {"description", "overshoot of repeated host-clock sleeps, in microseconds"}}};
    }

    void prepare(const std::string& job, const json::object&) override { check(job); }

    json::object run(const std::string& job) override {
        check(job);
        const auto& clock = host_.service<stand_clock_service>(STAND_CLOCK_SERVICE_ID);
        std::vector<double> over_us;
        for (std::int64_t i = 0; i < sleeps_; ++i) {
            std::uint64_t t0 = clock.monotonic_ns(host_.get());
            if (clock.sleep_ns(host_.get(), static_cast<std::uint64_t>(sleep_us_) * 1000) == STAND_E_CANCELLED)
                throw Error(STAND_E_CANCELLED, "timer-slack cancelled");
            double took_us = static_cast<double>(clock.monotonic_ns(host_.get()) - t0) / 1000.0;
            over_us.push_back(took_us - static_cast<double>(sleep_us_));
        }
        std::sort(over_us.begin(), over_us.end());
        auto at = [&](double q) { return over_us[static_cast<std::size_t>(q * static_cast<double>(over_us.size() - 1))]; };
        return {{"metrics", {{"overshoot_p50_us", at(0.5)}, {"overshoot_p99_us", at(0.99)},
                             {"overshoot_max_us", over_us.back()}, {"sleeps", sleeps_}}}};
    }

    stand_result cleanup(const std::string& job) override {
        check(job);
        return STAND_OK_NOTHING_TO_DO;
    }

private:
    static void check(const std::string& job) {
        if (job != "timer-slack") throw Error(STAND_E_NOT_FOUND, "hello: no job '" + job + "' (try timer-slack)");
    }

    stand::cpp::Host host_;
    std::int64_t sleeps_ = 0;
    std::int64_t sleep_us_ = 0;
};

}  // namespace

STAND_CPP_PLUGIN(Hello, "hello", "Hello adapter", "0.1.0",
                 "Example probe: measures how much longer than asked a host-clock sleep takes.",
                 config_spec())
