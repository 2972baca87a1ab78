// A box's pure parts: the cgroup layout read from mount tables (and this
// machine's), CPU lists, run group names and ids. Boxes on this machine's
// real cgroups (root): programs/box_test.cpp.
#include "box/cgroup_layout.hpp"
#include "box/cpu_list.hpp"
#include "box/group_name.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace stand::box;

TEST_CASE("box: layout detection from mount tables") {
    SUBCASE("v1 with co-mounted cpu,cpuacct and an escaped path") {
        auto l = detect_cgroup_layout("cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n"
                                      "cgroup /x\\040y cgroup rw,memory 0 0\n"
                                      "cgroup /sys/fs/cgroup/pids cgroup rw,nosuid,pids 0 0\n"
                                      "cgroup /sys/fs/cgroup/devices cgroup rw,devices 0 0\n"
                                      "cgroup /sys/fs/cgroup/systemd cgroup rw,xattr,name=systemd 0 0\n",
                                      "init\n");
        REQUIRE(l.backend == CgroupVersion::v1);
        CHECK(l.v1_foreign == std::vector<std::filesystem::path>{"/sys/fs/cgroup/devices", "/sys/fs/cgroup/systemd"});
        CHECK(l.v1.at("cpu") == "/sys/fs/cgroup/cpu,cpuacct");
        CHECK(l.v1.at("cpuacct") == "/sys/fs/cgroup/cpu,cpuacct");
        CHECK(l.v1.at("memory") == "/x y");
        CHECK(l.v1.count("cpuset") == 0);
        CHECK_FALSE(l.systemd_pid1);
        CHECK(l.describe().find("cpuset=missing") != std::string::npos);
        CHECK(l.describe().find("systemd not PID 1 here (PID 1 is 'init')") != std::string::npos);
    }
    SUBCASE("v2 without controllers and nothing else is unusable") {
        auto l = detect_cgroup_layout("cgroup2 /nonexistent/unified cgroup2 rw 0 0\n", "systemd");
        CHECK_FALSE(l.backend);
        CHECK(l.systemd_pid1);
        CHECK(l.describe().find("not enabled") != std::string::npos);
    }
    SUBCASE("this machine") {
        const auto l = detect_cgroup_layout();
        MESSAGE("cgroup layout: " << l.describe());
        CHECK_FALSE(l.describe().empty());
        CHECK(l.to_json().at("description").as_string() == l.describe());
    }
}

TEST_CASE("box: CPU lists and run group names") {
    CHECK(format_cpu_list(*parse_cpu_list("0-2,5, 7-8\n")) == "0-2,5,7-8");
    CHECK(parse_cpu_list("")->empty());
    CHECK_FALSE(parse_cpu_list("3-1"));
    CHECK_FALSE(parse_cpu_list("a"));

    Owner me = current_owner();
    CHECK(me.start_ticks > 0);
    CHECK(owner_alive(me));
    CHECK_FALSE(owner_alive(Owner{me.pid, me.start_ticks + 1}));  // a recycled pid
    auto name = run_group_name("run-1", me);
    auto back = parse_run_group_name(name);
    REQUIRE(back);
    CHECK(back->pid == me.pid);
    CHECK(back->start_ticks == me.start_ticks);
    CHECK_FALSE(parse_run_group_name("run-1"));
    CHECK_FALSE(parse_run_group_name("bad name.1.2"));
    auto dotted = parse_run_group_name(run_group_name("run.v2_r1", me));  // dots in a run id
    REQUIRE(dotted);
    CHECK(dotted->pid == me.pid);
    CHECK(valid_run_id("20261130-101006-ab12-hello.v2_r1"));
    CHECK_FALSE(valid_run_id(".hidden"));
    CHECK_FALSE(valid_run_id("a b"));
    CHECK(valid_group_word(new_run_id()));
    CHECK_FALSE(valid_group_word("a/b"));
    CHECK_FALSE(valid_group_word(""));
}
