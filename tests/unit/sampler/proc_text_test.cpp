#include "sampler/proc_text.hpp"

#include <doctest/doctest.h>

using namespace stand;

TEST_CASE("proc text: /proc/<pid>/stat with spaces and parentheses in comm") {
    auto st = sampler::parse_proc_stat("77 (a) b (c)) R 1 77 77 0 -1 0 0 0 0 0 5 6 7 8 20 0\n");
    REQUIRE(st);
    CHECK(st->ppid == 1);
    CHECK(st->cpu_ticks == 5 + 6 + 7 + 8);
    CHECK_FALSE(sampler::parse_proc_stat("77 (truncated"));
}

TEST_CASE("proc text: status values in kB become bytes, a key only at a line start") {
    const char* status = "Name:\tx\nVmRSS:\t    7560 kB\nThreads:\t3\nXVmSwap:\t1 kB\n";
    CHECK(sampler::status_kb(status, "VmRSS:") == 7560 * 1024);
    CHECK(sampler::status_kb(status, "Threads:") == 3);
    CHECK_FALSE(sampler::status_kb(status, "VmSwap:"));
}
