// The sampler: parsing, window statistics, CSV/JSON, and real measurements
// of a process tree through /proc (its children started by the host's
// ProcessManager: the folder of detect, the lowest part that reaches both).
// Children measured in boxes (root): programs/sampler_box_test.cpp.
#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"
#include "sampler/pressure.hpp"
#include "sampler/sample_csv.hpp"
#include "sampler/sampler.hpp"

#include "host/process/process_manager.hpp"

#include "eventually.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace stand::sampler;
using stand::test::eventually;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

Sample at(Clock::time_point t0, double s) {
    Sample x;
    x.t = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
    return x;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// The cgroup sample source of one group directory (the memory controller's).
std::unique_ptr<SampleSource> source_of(const fs::path& dir, stand::box::CgroupVersion version) {
    stand::box::GroupPaths paths;
    paths.version = version;
    paths.controllers["memory"] = {dir.parent_path(), dir};
    return make_cgroup_source(paths);
}

}  // namespace

TEST_CASE("sampler: parsing of cgroup and PSI text") {
    using stand::box::count_lines;
    using stand::box::find_u64;
    const std::string stat = "anon 100\nanon_thp 7\nfile 200\nfile_mapped 3\ninactive_file 50\n";
    CHECK(find_u64(stat, "anon") == 100U);
    CHECK(find_u64(stat, "file") == 200U);
    CHECK(find_u64(stat, "inactive_file") == 50U);
    CHECK_FALSE(find_u64(stat, "kernel"));
    CHECK(count_lines("1\n2\n3\n") == 3);
    CHECK(count_lines("") == 0);

    auto p = parse_pressure_some("some avg10=1.25 avg60=0.50 avg300=0.00 total=123456\n"
                                 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
    CHECK(p.some_avg10 == doctest::Approx(1.25));
    CHECK(p.some_total_us == 123456U);
    auto none = parse_pressure_some("garbage");
    CHECK_FALSE(none.some_avg10);
    CHECK_FALSE(none.some_total_us);
}

TEST_CASE("sampler: v2 files of a group directory, missing ones stay absent") {
    auto dir = fs::temp_directory_path() / ("stand-sampler-v2-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write(dir / "memory.current", "1000\n");
    write(dir / "memory.stat", "anon 600\nfile 300\nkernel 50\nshmem 10\ninactive_file 120\n");
    write(dir / "memory.events", "low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\noom_group_kill 0\n");
    write(dir / "cpu.stat", "usage_usec 5000\nuser_usec 4000\nsystem_usec 1000\nnr_periods 10\n"
                            "nr_throttled 3\nthrottled_usec 700\n");
    write(dir / "cgroup.procs", "12\n34\n");
    write(dir / "cpu.pressure", "some avg10=2.00 avg60=0.00 avg300=0.00 total=999\n");

    auto source = source_of(dir, stand::box::CgroupVersion::v2);
    Sample fast;
    source->read(fast, false);
    CHECK(fast.mem_current == 1000U);
    CHECK_FALSE(fast.procs);  // a slow field
    Sample s;
    source->read(s, true);
    CHECK(s.mem_current == 1000U);
    CHECK_FALSE(s.mem_peak);  // no memory.peak: absent, not 0
    CHECK(s.anon == 600U);
    CHECK(s.file == 300U);
    CHECK(s.kernel == 50U);
    CHECK(s.shmem == 10U);
    CHECK(s.inactive_file == 120U);
    CHECK(s.events_max == 4U);
    CHECK(s.events_oom == 1U);
    CHECK(s.events_oom_kill == 1U);
    CHECK(s.cpu_usage_us == 5000U);
    CHECK(s.nr_throttled == 3U);
    CHECK(s.throttled_us == 700U);
    CHECK(s.procs == 2U);
    CHECK_FALSE(s.tasks);
    // A container engine's child groups (--cgroup-parent=<box>) count too.
    fs::create_directories(dir / "libpod-1");
    fs::create_directories(dir / "conmon");
    write(dir / "libpod-1" / "cgroup.procs", "56\n78\n");
    write(dir / "conmon" / "cgroup.procs", "90\n");
    Sample nested;
    source->read(nested, true);
    CHECK(nested.procs == 5U);
    fs::remove_all(dir / "libpod-1");
    fs::remove_all(dir / "conmon");
    CHECK(s.cpu_pressure.some_total_us == 999U);
    CHECK_FALSE(s.io_pressure.some_total_us);

    write(dir / "memory.current", "2000\n");  // re-read through the open descriptor
    source->read(s, false);
    CHECK(s.mem_current == 2000U);
    fs::remove_all(dir);
}

TEST_CASE("sampler: v1 counts the processes and OOM kills of a container engine's child groups") {
    auto dir = fs::temp_directory_path() / ("stand-sampler-v1-" + std::to_string(::getpid()));
    fs::create_directories(dir / "libpod-1");
    fs::create_directories(dir / "conmon");
    write(dir / "memory.usage_in_bytes", "4096\n");
    write(dir / "cgroup.procs", "");
    write(dir / "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
    write(dir / "libpod-1" / "cgroup.procs", "56\n78\n");
    write(dir / "libpod-1" / "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
    write(dir / "conmon" / "cgroup.procs", "90\n");

    auto source = source_of(dir, stand::box::CgroupVersion::v1);
    Sample s;
    source->read(s, true);
    CHECK(s.mem_current == 4096U);
    CHECK(s.procs == 3U);
    CHECK(s.events_oom_kill == 2U);
    fs::remove_all(dir);
}

TEST_CASE("sampler: window statistics, JSON and CSV") {
    const auto t0 = Clock::now();
    std::vector<Sample> v;
    for (int i = 0; i <= 4; ++i) {
        Sample s = at(t0, 0.5 * i);
        s.mem_current = (100 + 10 * i) * kMiB;
        s.inactive_file = 20 * kMiB;
        s.cpu_usage_us = 250000U * static_cast<unsigned>(i);  // 0.25 s per 0.5 s: 50 %
        s.nr_throttled = 2U * static_cast<unsigned>(i);
        s.throttled_us = 1000U * static_cast<unsigned>(i);
        s.events_max = 5;
        s.host_cpu_pressure.some_total_us = 100000U * static_cast<unsigned>(i);  // 0.1 s per 0.5 s: 20 %
        v.push_back(s);
    }
    auto w = compute_window(v);
    CHECK(w.samples == 5);
    CHECK(w.duration_s == doctest::Approx(2.0));
    REQUIRE(w.mem_current);
    CHECK(w.mem_current->mean == doctest::Approx(120.0 * kMiB));
    CHECK(w.mem_current->max == 140 * kMiB);
    CHECK(w.mem_current->last == 140 * kMiB);
    REQUIRE(w.working_set);
    CHECK(w.working_set->last == 120 * kMiB);
    CHECK_FALSE(w.anon);
    REQUIRE(w.cpu_pct);
    CHECK(*w.cpu_pct == doctest::Approx(50.0));
    REQUIRE(w.cpu_pct_series.size() == 4);
    for (double x : w.cpu_pct_series) CHECK(x == doctest::Approx(50.0));
    CHECK(w.throttled_periods == 8U);
    CHECK(w.throttled_us == 4000U);
    CHECK(w.events_max == 0U);
    CHECK_FALSE(w.events_oom);
    CHECK(w.host_cpu_pressure.stall_pct == doctest::Approx(20.0));

    auto j = w.to_json(t0);
    CHECK(j.at("cpu").at("pct_of_one_cpu").as_double() == doctest::Approx(50.0));
    CHECK(j.at("memory").at("anon").is_null());
    CHECK(j.at("memory").at("current").at("max").as_uint64() == 140 * kMiB);

    std::ostringstream csv;
    write_samples_csv(csv, v, t0);
    std::istringstream lines(csv.str());
    std::string header, first;
    std::getline(lines, header);
    std::getline(lines, first);
    CHECK(header.rfind("t_s,mem_current,mem_peak,anon,", 0) == 0);
    CHECK(first.rfind("0.000000,104857600,,,", 0) == 0);  // absent fields are empty cells
    CHECK(std::count(header.begin(), header.end(), ',') == std::count(first.begin(), first.end(), ','));

    SUBCASE("a counter that went backwards has no delta") {
        v[2].cpu_usage_us = 1;
        auto r = compute_window(v);
        CHECK_FALSE(r.cpu_pct);
        CHECK(r.cpu_pct_series.size() == 3);  // the interval that went backwards is left out
    }
    SUBCASE("fewer than two samples is an error") {
        CHECK_THROWS_AS(compute_window({v.front()}), WindowError);
        CHECK_THROWS_WITH(compute_window({}), doctest::Contains("at least 2"));
    }
}

TEST_CASE("sampler: a process tree without a cgroup through /proc") {
    stand::host::ProcessManager pm(fs::temp_directory_path() / ("stand-sampler-proc-" + std::to_string(::getpid())),
                                   nullptr);
    auto h = pm.spawn(boost::json::object{{"argv", boost::json::array{"/bin/sh", "-c", "sleep 30 & sleep 30 & wait"}}});
    stand_process_status st{};
    pm.wait(h, 0, st);
    auto source = make_proc_tree_source(static_cast<pid_t>(st.pid));
    Sample s;
    CHECK(eventually([&] {
        s = Sample{};
        source->read(s, false);
        return s.procs == 3U;
    }));
    CHECK(s.mem_current.value_or(0) > 0);
    CHECK(s.anon.has_value());
    CHECK(s.cpu_usage_us.has_value());
    CHECK(s.tasks == 3U);
    CHECK_FALSE(s.kernel);
    CHECK_FALSE(s.nr_throttled);
    pm.kill_all();
    std::error_code ec;
    fs::remove_all(fs::temp_directory_path() / ("stand-sampler-proc-" + std::to_string(::getpid())), ec);
}

TEST_CASE("sampler: stop is prompt and the schedule holds at 100 ms") {
    Sampler sampler(make_proc_tree_source(::getpid()), {.interval = 100ms, .host_pressure = true});
    sampler.start();
    std::this_thread::sleep_for(1050ms);
    auto cpu = sampler.thread_cpu_time();
    const auto t = Clock::now();
    sampler.stop();
    CHECK(Clock::now() - t < 100ms);
    CHECK_FALSE(sampler.thread_cpu_time());
    REQUIRE(cpu);
    auto all = sampler.samples();
    CHECK(all.size() >= 10);
    CHECK(all.size() <= 12);
    // Drift-corrected: sample k sits near k x 100 ms after the first.
    const auto start = all.front().t;
    if (sampler.missed() == 0) {
        for (std::size_t k = 0; k < all.size(); ++k) {
            auto off = std::chrono::duration<double, std::milli>(all[k].t - start).count() - 100.0 * static_cast<double>(k);
            CHECK_MESSAGE(std::abs(off) < 60.0, "sample ", k, " off by ", off, " ms");
        }
    }
    if (fs::exists("/proc/pressure/cpu")) CHECK(all.back().host_cpu_pressure.some_total_us.has_value());
}

namespace {

// An OOM-kill counter read only on slow samples, as v1's memory.oom_control.
struct SlowCounterSource final : stand::sampler::SampleSource {
    std::atomic<std::uint64_t>* kills;
    explicit SlowCounterSource(std::atomic<std::uint64_t>* k) : kills(k) {}
    void read(Sample& s, bool slow) override {
        s.cpu_usage_us = 0;
        if (slow) s.events_oom_kill = kills->load();
    }
    std::string describe() const override { return "slow counter"; }
};

}  // namespace

TEST_CASE("sampler: an event right after a window's start is in its delta") {
    std::atomic<std::uint64_t> kills{0};
    Sampler sampler(std::make_unique<SlowCounterSource>(&kills),
                    {.interval = 50ms, .host_pressure = false, .slow_interval = 10s});
    sampler.start();  // the first sample is slow; the next one not for 10 s
    std::this_thread::sleep_for(120ms);
    const auto t0 = sampler.window_start();
    ++kills;  // an OOM kill well inside the first slow interval of the window
    std::this_thread::sleep_for(120ms);
    sampler.sample_now();
    const auto w = sampler.window(t0, Clock::now());
    sampler.stop();
    CHECK(w.events_oom_kill == 1U);
    // The window without its edge sample sees no slow reading before the end: no delta at all.
    std::vector<Sample> inner;
    for (const auto& s : sampler.samples(t0, Clock::now()))
        if (s.t > t0 + 1ms) inner.push_back(s);
    CHECK_FALSE(stand::sampler::compute_window(inner).events_oom_kill.has_value());
}
