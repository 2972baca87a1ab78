// Boxes on this machine's real cgroups (root): limits read back exactly,
// drift after tampering, children joining, kill_all, removal, signal-path and
// stale cleanup. The pure parts (layout parsing, CPU lists, names):
// box/box_test.cpp.
#include "box/box.hpp"
#include "box/cgroup_fs.hpp"
#include "box/cgroup_layout.hpp"
#include "box/cleanup_registry.hpp"
#include "box/cpu_list.hpp"
#include "box/drift.hpp"
#include "box/group_name.hpp"
#include "box/stale_cleanup.hpp"

#include "box_test_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace stand::box;
using stand::test::BoxedProcesses;
using stand::test::cgroup_layout;
using stand::test::cgroups_usable;
using stand::test::eventually;
using stand::test::unique_run_id;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

bool contains(const std::vector<std::string>& lines, const std::string& needle) {
    return std::any_of(lines.begin(), lines.end(), [&](const auto& l) { return l.find(needle) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += "\n  " + l;
    return out.empty() ? " (none)" : out;
}

bool all_gone(const std::vector<fs::path>& dirs) {
    return std::none_of(dirs.begin(), dirs.end(), [](const auto& d) { return fs::exists(d); });
}

std::size_t online_count() { return online_cpus().value_or(CpuSet{}).size(); }

}  // namespace

TEST_CASE("box: limits are applied and read back exactly") {
    if (!cgroups_usable()) return;
    const auto& layout = cgroup_layout();
    BoxPlan plan{.name = "measured", .vcpu = 0.5, .memory_max = 256 * kMiB, .swap_max = std::nullopt, .cpuset = "0"};
    if (layout.swap_accounting) plan.swap_max = 0;
    std::vector<fs::path> dirs;
    {
        Box box(layout, unique_run_id(), plan);
        dirs = box.dirs();
        REQUIRE_FALSE(dirs.empty());
        for (const auto& d : dirs) {
            CHECK(fs::is_directory(d));
            CHECK(d.parent_path().parent_path().filename() == "stand");
        }
        auto e = box.read_effective();
        MESSAGE(boost::json::serialize(e.to_json()));
        CHECK(e.backend == (layout.backend == CgroupVersion::v2 ? "cgroup v2" : "cgroup v1"));
        CHECK(e.cpu_quota_us == 50000U);
        CHECK(e.cpu_period_us == 100000U);
        CHECK(e.vcpu() == doctest::Approx(0.5));
        CHECK(e.memory_max == 256 * kMiB);
        if (layout.swap_accounting)
            CHECK(e.swap_max == 0U);
        else
            WARN_MESSAGE(false, "no swap accounting: swap limit not checked");
        if (layout.root_of("cpuset")) {
            CHECK(e.cpus == "0");
            CHECK(e.cpus_effective == "0");
            CHECK(e.mems_effective.has_value());
        } else {
            WARN_MESSAGE(false, "no cpuset controller: pin not checked");
        }
        CHECK_FALSE(e.ancestor_vcpu);
        CHECK_FALSE(e.ancestor_memory_max);
        auto d = box.drift();
        CHECK_MESSAGE(d.empty(), "unexpected drift:" << joined(d));
        auto j = e.to_json();
        CHECK(j.at("cpu").at("quota_us").as_uint64() == 50000);
        CHECK(j.at("memory_max").as_uint64() == 256 * kMiB);
        auto report = box.to_json();
        CHECK(report.at("plan").at("vcpu").as_double() == doctest::Approx(0.5));
        CHECK(report.at("effective").at("cpuset").at("cpus_effective") == j.at("cpuset").at("cpus_effective"));
        CHECK(report.at("drift").as_array().empty());
    }
    CHECK(all_gone(dirs));
    CHECK(all_gone({dirs.front().parent_path()}));  // the run group goes with its last box
}

TEST_CASE("box: drift is reported when settings change behind the plan's back") {
    if (!cgroups_usable()) return;
    const auto& layout = cgroup_layout();
    const bool v2 = layout.backend == CgroupVersion::v2;
    const bool two_cpus = layout.root_of("cpuset") && online_count() >= 2;
    const std::string all = format_cpu_list(*online_cpus());

    SUBCASE("a pinned, limited box") {
        Box box(layout, unique_run_id(), {.name = "measured", .vcpu = 0.5, .cpuset = "0"});
        REQUIRE(box.drift().empty());
        const auto& cpu = box.paths().find("cpu")->dir;
        if (v2)
            write_text(cpu / "cpu.max", "20000 100000");
        else
            write_text(cpu / "cpu.cfs_quota_us", "20000");
        if (two_cpus) write_text(box.paths().find("cpuset")->dir / "cpuset.cpus", "1");
        auto d = box.drift();
        MESSAGE("drift:" << joined(d));
        CHECK(contains(d, "cpu: planned 0.5 vCPU (quota 50000/100000 us), effective 0.2 vCPU (quota 20000/100000 us)"));
        if (two_cpus) CHECK(contains(d, "cpuset: planned 0, effective 1"));
        // The same box against a plan that expected the tampered values.
        auto other = box.drift({.name = "measured", .vcpu = 0.2, .cpuset = two_cpus ? "1" : "0"});
        CHECK_MESSAGE(other.empty(), joined(other));
    }
    SUBCASE("no pin planned means all online CPUs") {
        if (!two_cpus) {
            WARN_MESSAGE(false, "fewer than 2 CPUs or no cpuset controller: pin drift not testable");
            return;
        }
        Box box(layout, unique_run_id(), {.name = "measured", .vcpu = 1.0});
        REQUIRE(box.drift().empty());
        CHECK(box.read_effective().cpus_effective == all);
        write_text(box.paths().find("cpuset")->dir / "cpuset.cpus", "1");
        auto d = box.drift();
        CHECK_MESSAGE(contains(d, "cpuset: planned all CPUs (" + all + "), effective 1"), joined(d));
    }
    SUBCASE("a limit on an ancestor group binds the box too") {
        Box box(layout, unique_run_id(), {.name = "client"});
        REQUIRE(box.drift().empty());
        const auto run_group = box.paths().find("cpu")->dir.parent_path();
        if (v2)
            write_text(run_group / "cpu.max", "30000 100000");
        else
            write_text(run_group / "cpu.cfs_quota_us", "30000");
        auto d = box.drift();
        CHECK_MESSAGE(contains(d, "cpu: ancestor " + run_group.string() + " limits the box to 0.3 vCPU"), joined(d));
        CHECK(box.read_effective().to_json().at("ancestor_limits").as_object().contains("vcpu"));
    }
    SUBCASE("a memory limit nobody planned") {
        Box box(layout, unique_run_id(), {.name = "client"});
        const auto& mem = box.paths().find("memory")->dir;
        write_text(mem / (v2 ? "memory.max" : "memory.limit_in_bytes"), std::to_string(64 * kMiB));
        auto d = box.drift();
        CHECK_MESSAGE(contains(d, "memory: planned no limit, effective 67108864 B (64 MiB)"), joined(d));
    }
}

TEST_CASE("box: a child joins every box directory and kill_all empties the box") {
    if (!cgroups_usable()) return;
    Box box(cgroup_layout(), unique_run_id(), {.name = "measured", .vcpu = 1.0, .memory_max = 128 * kMiB});
    BoxedProcesses procs(box);
    // A shell with two background children: kill_all must catch them all.
    pid_t sh = procs.shell("sleep 30 & sleep 30 & wait", "measured").pid;
    REQUIRE(eventually([&] { return box.pids().size() == 3; }));
    for (const auto& dir : box.dirs()) {
        auto members = read_procs(dir);
        CHECK_MESSAGE(std::find(members.begin(), members.end(), sh) != members.end(), dir.string());
    }
    CHECK(box.kill_all(std::chrono::seconds(3)));
    CHECK(box.pids().empty());
    for (const auto& dir : box.dirs()) CHECK(read_procs(dir).empty());
}

TEST_CASE("box: the destructor kills what is left and removes the directories") {
    if (!cgroups_usable()) return;
    auto box = std::make_unique<Box>(cgroup_layout(), unique_run_id(), BoxPlan{.name = "measured"});
    const auto dirs = box->dirs();
    BoxedProcesses procs(*box);
    auto child = procs.shell("exec sleep 30", "measured");
    REQUIRE(eventually([&] { return !box->pids().empty(); }));
    box.reset();  // while the child still runs
    CHECK(all_gone(dirs));
    CHECK(procs.killed(child));
}

TEST_CASE("box: groups a container engine made below the box go with it") {
    if (!cgroups_usable()) return;
    auto box = std::make_unique<Box>(cgroup_layout(), unique_run_id(), BoxPlan{.name = "measured"});
    const auto dirs = box->dirs();
    for (const auto& d : dirs) {  // what podman leaves with --cgroup-parent=<box>
        REQUIRE(make_dir(d / "conmon"));
        REQUIRE(make_dir(d / "libpod-1"));
        REQUIRE(make_dir(d / "libpod-1" / "nested"));
    }
    // and in the hierarchies a box does not use (v1 devices, freezer, name=systemd), with the box's path
    const auto& leaf = dirs.front();  // <hierarchy>/stand/<run group>/<box>
    const auto box_path = leaf.lexically_relative(leaf.parent_path().parent_path().parent_path());
    std::vector<std::filesystem::path> foreign;
    for (const auto& root : cgroup_layout().v1_foreign) {
        const auto libpod = root / box_path / "libpod-1";
        std::filesystem::create_directories(libpod);
        foreign.push_back(libpod.parent_path());
    }
    box.reset();
    CHECK(all_gone(dirs));
    CHECK(all_gone(foreign));
}

TEST_CASE("box: a plan that cannot be applied leaves nothing behind") {
    if (!cgroups_usable()) return;
    const auto& layout = cgroup_layout();
    const auto run = unique_run_id();
    CHECK_THROWS_AS(Box(layout, run, {.name = "measured", .vcpu = 0.0}), BoxError);
    CHECK_THROWS_AS(Box(layout, run, {.name = "bad/name"}), BoxError);
    CHECK_THROWS_AS(Box(layout, "bad run", {.name = "measured"}), BoxError);
    if (layout.root_of("cpuset")) {
        // Valid syntax, but no such CPU: the kernel refuses it after the groups exist.
        try {
            Box box(layout, run, {.name = "measured", .cpuset = "4000"});
            FAIL("cpuset 4000 was accepted");
        } catch (const BoxError& e) {
            CHECK(std::string(e.what()).find("cpuset.cpus") != std::string::npos);
        }
    }
    const auto top = *layout.root_of("memory") / "stand" / run_group_name(run, current_owner());
    CHECK_FALSE(fs::exists(top));
    CHECK(live_box_count() == 0);
    // Same name twice in one run.
    Box first(layout, run, {.name = "measured"});
    CHECK_THROWS_WITH_AS(Box(layout, run, {.name = "measured"}), doctest::Contains("already exists"), BoxError);
    CHECK(fs::exists(first.dirs().front()));
}

TEST_CASE("box: cleanup_all_boxes kills and removes every live box (signal path)") {
    if (!cgroups_usable()) return;
    const auto run = unique_run_id();
    Box measured(cgroup_layout(), run, {.name = "measured", .vcpu = 0.5});
    Box client(cgroup_layout(), run, {.name = "client"});
    auto dirs = measured.dirs();
    auto client_dirs = client.dirs();
    BoxedProcesses procs(measured);
    procs.shell("exec sleep 30", "measured");
    REQUIRE(eventually([&] { return !measured.pids().empty(); }));
    CHECK(live_box_count() == 2);
    CHECK(cleanup_all_boxes() == 2);
    CHECK(live_box_count() == 0);
    CHECK(all_gone(dirs));
    CHECK(all_gone(client_dirs));
    measured.destroy();  // idempotent; the destructors do nothing more
}

TEST_CASE("box: stale cleanup removes the groups of dead owners only") {
    if (!cgroups_usable()) return;
    const auto& layout = cgroup_layout();
    Box alive(layout, unique_run_id(), {.name = "measured"});

    // A run group whose owner is "us with another start time": a recycled pid.
    Owner me = current_owner();
    const std::string stale_name = run_group_name("crashed", Owner{me.pid, me.start_ticks + 7});
    const auto root = *layout.root_of(layout.backend == CgroupVersion::v2 ? "cpu" : "pids");
    const auto stale_run = root / "stand" / stale_name;
    const auto stale_leaf = stale_run / "measured";
    REQUIRE(::mkdir(stale_run.c_str(), 0755) == 0);
    REQUIRE(::mkdir(stale_leaf.c_str(), 0755) == 0);
    // A process left behind in it (spawned straight into the stale leaf).
    stand::host::ProcessManager pm(fs::temp_directory_path() / "stand-box-stale",
                                   [&](const std::string&) { return std::vector<fs::path>{stale_leaf}; });
    auto h = pm.spawn(boost::json::object{{"argv", boost::json::array{"sleep", "30"}}, {"box", "measured"}});

    auto report = cleanup_stale_boxes(layout);
    CHECK(report.failed.empty());
    CHECK(report.killed >= 1);
    CHECK(std::find(report.removed.begin(), report.removed.end(), stale_leaf.string()) != report.removed.end());
    CHECK_FALSE(fs::exists(stale_run));
    stand_process_status st{};
    CHECK(pm.wait(h, 2000, st));
    CHECK(st.state == STAND_PROCESS_SIGNALED);
    for (const auto& d : alive.dirs()) CHECK(fs::exists(d));  // a live owner's box stays
    std::error_code ec;
    fs::remove_all(fs::temp_directory_path() / "stand-box-stale", ec);
}

TEST_CASE("box: a client box has no limits and no drift") {
    if (!cgroups_usable()) return;
    Box client(cgroup_layout(), unique_run_id(), {.name = "client"});
    auto e = client.read_effective();
    CHECK(e.cpu_quota_us == kUnlimited);
    CHECK(e.memory_max == kUnlimited);
    if (e.cpus_effective) CHECK(e.cpus_effective == e.online_cpus);
    CHECK(e.to_json().at("memory_max").as_string() == "max");
    auto d = client.drift();
    CHECK_MESSAGE(d.empty(), joined(d));
}
