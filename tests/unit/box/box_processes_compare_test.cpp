// A process replaced (a core restarted: every PID of its name gone, a new
// one started) against worker turnover under a surviving PID (PostgreSQL's
// per-connection backends under its postmaster).
#include "box/box_processes.hpp"

#include <doctest/doctest.h>

namespace box = stand::box;

TEST_CASE("box processes: a name whose every PID changed is replaced, one with a PID that lived on is turnover") {
    const std::vector<box::BoxProcess> before{{10, "postgres"}, {11, "postgres"}, {12, "postgres"},
                                              {20, "rw-core"},  {30, "x-ui"},     {40, "redis-server"}};
    const std::vector<box::BoxProcess> after{{10, "postgres"}, {13, "postgres"}, {21, "rw-core"},
                                             {31, "x-ui"},     {32, "x-ui"},     {40, "redis-server"}};
    const auto c = box::compare_processes(before, after);
    CHECK(c.replaced == std::vector<std::string>{"rw-core 20 -> 21", "x-ui 30 -> 31,32"});
    CHECK(c.turnover == std::vector<std::string>{"postgres 11,12 -> 13"});
    CHECK(c.gone.size() == 4);
    CHECK(c.started.size() == 4);
    const auto j = c.to_json(before, after);
    CHECK(j.at("turnover").as_array().size() == 1);
    CHECK(j.at("replaced").as_array().size() == 2);
}

TEST_CASE("box processes: the same processes, or only new ones, replace nothing") {
    const std::vector<box::BoxProcess> same{{1, "a"}, {2, "b"}};
    CHECK(box::compare_processes(same, same).replaced.empty());
    const auto grown = box::compare_processes(same, {{1, "a"}, {2, "b"}, {3, "c"}});
    CHECK(grown.replaced.empty());
    CHECK(grown.turnover.empty());
    CHECK(grown.started.size() == 1);
}
