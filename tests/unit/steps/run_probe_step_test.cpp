// run_probe: a probe job of the plugin (stand.probe/1): prepare, run, cleanup.
// The metrics of run()'s answer become <step>.<metric> (its latency histogram
// the host's lat_p50_us .. lat_p999_us), its facts the record's probe_facts
// under the step's name, its notes the record's notes (each once); an answer
// of another shape ends the repetition.
#include "fake_box_fixtures.hpp"
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace stand::test;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

namespace {

// A probe that reads at 512.5 MiB/s, with a latency histogram, facts and a note.
const json::object kAnswer{
    {"metrics", {{"mib_s", 512.5}, {"iops", 131200}}},
    {"latency_histogram_ns", {json::array{80000, 50}, json::array{120000, 45}, json::array{2000000, 5}}},
    {"facts", {{"filesystem", "ext4"}, {"direct", true}}},
    {"notes", {"the page cache was dropped before the run"}}};

void probe_answers(StepBench& b) { b.port.answer(PortCall::run, json::value(kAnswer)); }

// A box that burns half of one CPU, sampled every 10 ms.
void sample_half_cpu_box(StepBench& b) { sample_fake_box(b, FakeBoxShape::cpu_only(0.5), std::chrono::milliseconds(10)); }

}  // namespace

STAND_STEP_SAMPLE({"run_probe", R"({"step": "run_probe", "job": "seq_read", "params": {"size_mib": 1}})", "",
                   probe_answers});

TEST_CASE("run_probe step: prepare, run and cleanup of the job, the answer's metrics under the step's name") {
    StepBench b(R"({"step": "run_probe", "name": "rd", "job": "seq_read", "params": {"size_mib": 1, "direct": true}})");
    probe_answers(b);
    CHECK(b.failure_of_all() == "");
    const std::vector<PortCall> expected{PortCall::prepare, PortCall::run, PortCall::cleanup};
    CHECK(b.port.call_sequence() == expected);
    CHECK(b.port.calls()[0].args ==
          json::object{{"job", "seq_read"}, {"params", {{"size_mib", 1}, {"direct", true}}}});
    CHECK(b.port.calls()[1].args == json::object{{"job", "seq_read"}});
    CHECK(b.port.calls()[2].args == json::object{{"job", "seq_read"}});
    // Each call gets what is left of the step's 60 s.
    CHECK(b.port.calls()[0].timeout > std::chrono::seconds(59));
    CHECK(b.port.calls()[0].timeout <= std::chrono::seconds(60));
    CHECK(b.metric("rd.mib_s") == 512.5);
    CHECK(b.metric("rd.iops") == 131200);
    // The host's percentiles of the histogram (100 I/Os: 50 at 80 us, 45 at 120 us, 5 at 2 ms).
    CHECK(b.metric("rd.lat_p50_us") == doctest::Approx(80).epsilon(0.002));
    CHECK(b.metric("rd.lat_p90_us") == doctest::Approx(120).epsilon(0.002));
    CHECK(b.metric("rd.lat_p99_us") == doctest::Approx(2000).epsilon(0.002));
    CHECK(b.metric("rd.lat_p999_us") == doctest::Approx(2000).epsilon(0.002));
    CHECK(b.ctx.record.metrics.size() == 6);
    CHECK(b.ctx.record.probe_facts.at("rd") == json::object{{"filesystem", "ext4"}, {"direct", true}});
    CHECK(b.ctx.record.notes == json::array{"the page cache was dropped before the run"});
    // Without a sampler, no window and no box CPU.
    CHECK_FALSE(b.metric("rd.box_cpu_pct").has_value());
    CHECK(b.ctx.record.windows.empty());
    CHECK(b.ctx.record.findings.empty());
}

TEST_CASE("run_probe step: facts per step, each note once, no facts no entry") {
    StepBench b(R"({"step": "run_probe", "name": "a", "job": "seq_read"},
                   {"step": "run_probe", "name": "b", "job": "rand_read"})");
    b.port.answer(PortCall::run, [](const json::object& args) {
        if (args.at("job") == "seq_read") return reply_ok(kAnswer);
        return reply_ok(json::object{{"metrics", {{"iops", 9000.0}}},
                                     {"notes", {"the page cache was dropped before the run", "queue depth 1"}}});
    });
    CHECK(b.failure_of_all() == "");
    CHECK(b.metric("a.iops") == 131200);
    CHECK(b.metric("b.iops") == 9000);
    CHECK_FALSE(b.metric("b.lat_p50_us").has_value());
    CHECK(b.ctx.record.probe_facts.size() == 1);
    CHECK(b.ctx.record.probe_facts.contains("a"));
    CHECK(b.ctx.record.notes == json::array{"the page cache was dropped before the run", "queue depth 1"});
    CHECK(b.port.count(PortCall::cleanup) == 2);
}

TEST_CASE("run_probe step: with a sampler, the box's CPU over the run as <step>.box_cpu_pct") {
    StepBench b(R"({"step": "run_probe", "name": "rd", "job": "seq_read"})");
    sample_half_cpu_box(b);
    b.port.answer(PortCall::run, [](const json::object&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the probe's I/O
        return reply_ok(json::object{{"metrics", {{"mib_s", 100}}}});
    });
    CHECK(b.failure_of_all() == "");
    CHECK(b.metric("rd.box_cpu_pct") == doctest::Approx(50).epsilon(0.02));
    REQUIRE(b.ctx.record.windows.contains("rd"));
    CHECK(b.ctx.record.windows.at("rd").at("duration_s").to_number<double>() >= 0.05);
}

TEST_CASE("run_probe step: a job that measured nothing gets no box CPU beside it") {
    StepBench b(R"({"step": "run_probe", "name": "z", "job": "7z-bench"})");
    sample_half_cpu_box(b);
    b.port.answer(PortCall::run, json::value(json::object{{"metrics", json::object{}}, {"notes", {"no 7z on PATH"}}}));
    CHECK(b.failure_of_all() == "");
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.notes.size() == 1);
}

TEST_CASE("run_probe step: an answer of another shape is refused, naming the plugin, the job and the key") {
    auto garbage = [](json::value answer) {
        StepBench b(R"({"step": "run_probe", "name": "rd", "job": "seq_read"})");
        b.port.answer(PortCall::run, answer);
        const std::string failure = b.failure_of_all();
        CHECK(b.ctx.record.metrics.empty());
        CHECK(b.ctx.record.probe_facts.empty());
        CHECK(b.ctx.record.notes.empty());
        return failure;
    };
    const std::string prefix = "fake probe.run of job 'seq_read' answered garbage: ";
    CHECK(garbage(json::object{{"mib_s", 5}}) ==
          prefix + "unknown key 'mib_s' (expected metrics, latency_histogram_ns, facts, notes)");
    CHECK(garbage(json::array{1, 2}) == prefix + "expected a JSON object, got [1,2]");
    CHECK(garbage(nullptr) == prefix + "expected a JSON object, got null");
    CHECK(garbage(json::object{{"metrics", {{"mib_s", "fast"}}}}) ==
          prefix + R"(metrics.mib_s: expected a finite number, got "fast")");
    CHECK(garbage(json::object{{"metrics", {{"", 1}}}}) == prefix + "metrics: a metric with an empty name");
    CHECK(garbage(json::object{{"facts", "ext4"}}) == prefix + "facts: expected an object");
    CHECK(garbage(json::object{{"notes", {1}}}) == prefix + "notes: expected strings, got 1");
    CHECK(garbage(json::object{{"latency_histogram_ns", {json::array{80000}}}}) ==
          prefix + "latency_histogram_ns[0]: expected [value_ns, count], got [80000]");
    CHECK(garbage(json::object{{"latency_histogram_ns", {json::array{80000, -1}}}}) ==
          prefix + "latency_histogram_ns[0][1]: expected a non-negative integer, got -1");
    // The host computes the percentiles: a probe sending one besides its histogram is refused.
    CHECK(garbage(json::object{{"metrics", {{"lat_p99_us", 90.0}}},
                               {"latency_histogram_ns", {json::array{80000, 1}}}}) ==
          prefix + "metrics.lat_p99_us: the host computes it from latency_histogram_ns; send only the histogram");
}

TEST_CASE("run_probe step: a failed call ends the repetition naming the call") {
    StepBench prepare(R"({"step": "run_probe", "job": "seq_read"})");
    prepare.port.answer(PortCall::prepare,
                        [](const json::object&) { return reply_error(STAND_E_IO, "cannot write /mnt/test/file: ENOSPC"); });
    CHECK(prepare.failure_of_all() == "probe.prepare: cannot write /mnt/test/file: ENOSPC");
    CHECK(prepare.port.count(PortCall::run) == 0);

    StepBench run(R"({"step": "run_probe", "job": "seq_read"})");
    run.port.answer(PortCall::run, [](const json::object&) { return reply_error(STAND_E_BAD_STATE, ""); });
    CHECK(run.failure_of_all() == "probe.run: bad-state");
    CHECK(run.ctx.record.metrics.empty());
    // The host cleans up after every step (ext/probe.h), one whose run failed too.
    CHECK(run.port.count(PortCall::cleanup) == 1);

    // The cleanup failing comes after the metrics were recorded.
    StepBench cleanup(R"({"step": "run_probe", "name": "rd", "job": "seq_read"})");
    probe_answers(cleanup);
    cleanup.port.answer(PortCall::cleanup, [](const json::object&) {
        return reply_failure(stand::isolation::WorkerReply::Failure::kCrashed, "the worker died of signal 9");
    });
    CHECK(cleanup.failure_of_all() == "probe.cleanup: the worker died of signal 9");
    CHECK(cleanup.metric("rd.mib_s") == 512.5);
}
