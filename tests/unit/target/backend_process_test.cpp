// What the scenario's `stand backend` child (target/backend_process.hpp) reads
// of it: its CPU time and its ready line. The child itself runs in
// programs/backend_process_test.cpp.
#include "target/backend_process.hpp"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("backend: its CPU from /proc/PID/stat text, whatever its name holds") {
    // Fields 14 and 15 (utime, stime) are 250 and 150 ticks: 4 s at 100 ticks/s.
    const std::string stat = "4242 (stand (backend) x) S 1 4242 4242 0 -1 4194560 812 0 0 0 250 150 0 0 20 0 3 0";
    const auto cpu = stand::target::cpu_seconds_of_stat(stat, 100);
    REQUIRE(cpu);
    CHECK(*cpu == doctest::Approx(4.0));
    CHECK_FALSE(stand::target::cpu_seconds_of_stat("", 100));
    CHECK_FALSE(stand::target::cpu_seconds_of_stat("4242 (stand) S 1", 100));
    CHECK_FALSE(stand::target::cpu_seconds_of_stat(stat, 0));
    CHECK(stand::target::backend_ready_line(R"({"listen":"10.0.0.4:80","control":"10.0.0.4:81"})"));
    CHECK_FALSE(stand::target::backend_ready_line(R"({"accepted":3})"));
    CHECK_FALSE(stand::target::backend_ready_line("stand-remote-pid 12"));
}
