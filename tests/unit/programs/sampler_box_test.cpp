// The sampler measuring children in boxes on this machine's real cgroups
// (root): a CPU burner against a 0.5 vCPU quota, a 64 MiB allocation. The
// rest of the sampler: detect/sampler_test.cpp.
#include "box/box.hpp"
#include "box/cgroup_fs.hpp"
#include "sampler/sampler.hpp"

#include "box_test_support.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace stand::sampler;
using stand::box::Box;
using stand::test::BoxedProcesses;
using stand::test::cgroup_layout;
using stand::test::cgroups_usable;
using stand::test::eventually;
using stand::test::unique_run_id;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

// On a machine busy with other work the burner would get less than its
// quota and never be throttled: give the box's ancestors (stand/ and the run
// group, which compete with everything else) the highest CPU weight for
// the test, so the quota is what limits it. Restored afterwards.
struct TopWeight {
    std::vector<fs::path> dirs;
    bool v2;
    explicit TopWeight(const Box& box) : v2(box.paths().version == stand::box::CgroupVersion::v2) {
        const auto& e = *box.paths().find("cpu");
        for (auto p = e.dir.parent_path(); p != e.root; p = p.parent_path()) dirs.push_back(p);
        for (const auto& d : dirs) set(d, v2 ? "10000" : "262144");
    }
    ~TopWeight() {
        for (const auto& d : dirs) set(d, v2 ? "100" : "1024");
    }
    void set(const fs::path& dir, const char* value) const {
        try {
            stand::box::write_text(dir / (v2 ? "cpu.weight" : "cpu.shares"), value);
        } catch (const stand::box::BoxError& e) {
            MESSAGE(e.what());
        }
    }
};

}  // namespace

TEST_CASE("sampler: a CPU burner in a 0.5 vCPU box runs at about 50 % and is throttled") {
    if (!cgroups_usable()) return;
    Box box(cgroup_layout(), unique_run_id(), {.name = "measured", .vcpu = 0.5});
    TopWeight weight(box);
    BoxedProcesses procs(box);
    Sampler sampler(make_cgroup_source(box.paths()), {.interval = 100ms});
    sampler.start();
    procs.shell("while :; do :; done", "measured");
    std::this_thread::sleep_for(200ms);
    const auto t0 = Clock::now();
    std::this_thread::sleep_for(1500ms);
    const auto t1 = Clock::now();
    auto w = sampler.window(t0, t1);
    sampler.stop();
    MESSAGE("cpu " << w.cpu_pct.value_or(-1) << " % over " << w.duration_s << " s, " << w.samples << " samples, "
                   << w.throttled_periods.value_or(0) << " throttled periods, missed " << sampler.missed());
    CHECK(w.samples >= 12);
    CHECK(w.samples <= 17);
    REQUIRE(w.cpu_pct);
    CHECK(*w.cpu_pct > 25.0);  // generous: the machine is shared
    CHECK(*w.cpu_pct < 60.0);  // the quota is a hard ceiling
    CHECK(w.cpu_pct_series.size() == w.samples - 1);
    REQUIRE(w.throttled_periods);
    CHECK(*w.throttled_periods > 0);
    CHECK(w.throttled_us.value_or(0) > 0);
    REQUIRE(w.procs);  // a slow field: about once a second
    CHECK(w.procs->n >= 1);
    CHECK(w.procs->n <= 3);
    CHECK(w.procs->last == 1);
    REQUIRE(w.tasks);
    CHECK(w.tasks->n == w.samples);
}

TEST_CASE("sampler: a child touching 64 MiB raises the box's memory") {
    if (!cgroups_usable()) return;
    Box box(cgroup_layout(), unique_run_id(), {.name = "measured", .memory_max = 256 * kMiB});
    BoxedProcesses procs(box);
    Sampler sampler(make_cgroup_source(box.paths()), {.interval = 100ms});
    sampler.start();
    auto before = sampler.sample_now();
    REQUIRE(before.mem_current);
    // dd fills a 64 MiB buffer from /dev/zero and blocks writing it to a pipe nobody reads.
    procs.shell("dd if=/dev/zero bs=64M count=1 status=none | sleep 30", "measured");
    CHECK(eventually([&] {
        auto s = sampler.sample_now();
        return s.mem_current && *s.mem_current >= *before.mem_current + 60 * kMiB;
    }));
    std::this_thread::sleep_for(250ms);
    auto w = sampler.window(sampler.epoch(), Clock::now());
    sampler.stop();
    REQUIRE(w.mem_current);
    REQUIRE(w.anon);
    MESSAGE("memory max " << w.mem_current->max / kMiB << " MiB, anon max " << w.anon->max / kMiB << " MiB");
    CHECK(w.mem_current->max >= 64 * kMiB);
    CHECK(w.anon->max >= 60 * kMiB);
    CHECK(w.mem_current->mean < static_cast<double>(w.mem_current->max));  // it rose during the window
    if (w.mem_peak) CHECK(w.mem_peak->last >= w.mem_current->max);
    CHECK(w.events_oom_kill.value_or(0) == 0);
}
