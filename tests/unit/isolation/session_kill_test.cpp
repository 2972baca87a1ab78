// Killing a plugin worker's session: every process in it, one in a process
// group of its own too. The worker itself, on real plugins:
// programs/plugin_worker_test.cpp.
#include "isolation/session_kill.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace stand;
using namespace std::chrono_literals;

TEST_CASE("session kill: every process of the session goes, a process group of its own included") {
    const pid_t leader = ::fork();
    REQUIRE(leader >= 0);
    if (leader == 0) {
        ::setsid();
        if (::fork() == 0) {
            ::setpgid(0, 0);
            ::execlp("sleep", "sleep", "600", nullptr);
            ::_exit(127);
        }
        ::execlp("sleep", "sleep", "600", nullptr);
        ::_exit(127);
    }
    for (int i = 0; i < 200 && isolation::session_members(leader).size() < 2; ++i) std::this_thread::sleep_for(5ms);
    REQUIRE(isolation::session_members(leader).size() == 2);
    CHECK(isolation::kill_session(leader) == 2);
    int status = 0;
    CHECK(::waitpid(leader, &status, 0) == leader);
    CHECK(WIFSIGNALED(status));
    CHECK(isolation::session_members(leader).empty());
}
