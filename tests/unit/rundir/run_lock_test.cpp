// One experiment per run directory and one stand at a time in it
// (rundir/run_lock.hpp), and a reader that creates nothing.
#include "rundir/run_directory.hpp"
#include "rundir/run_lock.hpp"
#include "temp_dir.hpp"
#include "text/user_error.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using stand::rundir::RunDirectory;
using stand::rundir::RunLock;
using stand::text::UserError;

TEST_CASE("run lock: a new run takes a new or empty directory, never one with a run in it") {
    stand::test::TempDir tmp;
    const auto fresh = tmp.path() / "a" / "b";
    { const auto lock = RunLock::for_new_run(fresh); }
    CHECK(std::filesystem::is_directory(fresh));
    std::ofstream(fresh / "run.json") << "{}";
    CHECK_THROWS_WITH_AS(RunLock::for_new_run(fresh), doctest::Contains("not empty (a run directory holds one experiment)"),
                         UserError);
    std::ofstream(tmp.path() / "file") << "x";
    CHECK_THROWS_WITH_AS(RunLock::for_new_run(tmp.path() / "file"), doctest::Contains("not a directory"), UserError);
    CHECK_THROWS_WITH_AS(RunLock::for_existing_run(tmp.path() / "nothing"), doctest::Contains("no such directory"),
                         UserError);
    std::filesystem::remove(fresh / "run.json");
    CHECK_THROWS_WITH_AS(RunLock::for_existing_run(fresh), doctest::Contains("no run.json"), UserError);
}

TEST_CASE("run lock: a second stand in the directory is refused at once, naming the holder's pid") {
    stand::test::TempDir tmp;
    const auto dir = tmp.path() / "run";
    const auto first = RunLock::for_new_run(dir);
    std::ofstream(dir / "run.json") << "{}";
    const std::string holder = "in use by stand pid " + std::to_string(::getpid());
    CHECK_THROWS_WITH_AS(RunLock::for_existing_run(dir), doctest::Contains(holder.c_str()), UserError);
    // A holder that wrote no pid (yet): /proc/locks names it.
    std::filesystem::resize_file(dir / "lock", 0);
    const std::string unwritten = "in use by pid " + std::to_string(::getpid()) + " ";
    CHECK_THROWS_WITH_AS(RunLock::for_existing_run(dir), doctest::Contains(unwritten.c_str()), UserError);
}

TEST_CASE("run lock: the lock goes with its holder") {
    stand::test::TempDir tmp;
    const auto dir = tmp.path() / "run";
    { const auto lock = RunLock::for_new_run(dir); }
    std::ofstream(dir / "run.json") << "{}";
    CHECK_NOTHROW(RunLock::for_existing_run(dir));
}

TEST_CASE("run directory: a reader creates nothing, and a device in reps/ is refused by name") {
    stand::test::TempDir tmp;
    RunDirectory dir(tmp.path());
    CHECK(dir.read_all_reps().empty());
    CHECK_FALSE(dir.read_run_info());
    CHECK_FALSE(std::filesystem::exists(tmp.path() / "reps"));
    CHECK_FALSE(std::filesystem::exists(tmp.path() / "logs"));
    dir.create_layout();
    std::filesystem::create_symlink("/dev/zero", tmp.path() / "reps" / "x.json");
    CHECK_THROWS_WITH_AS(dir.read_all_reps(), doctest::Contains("x.json: not a regular file"), UserError);
}

TEST_CASE("run lock: what a stand killed before it wrote run.json left is no experiment") {
    stand::test::TempDir tmp;
    const auto dir = tmp.path() / "run";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "lock") << "99999\n";
    std::ofstream(dir / "run.json.tmp99999") << "{\"half";
    {
        const auto lock = RunLock::for_new_run(dir);
        CHECK_FALSE(std::filesystem::exists(dir / "run.json.tmp99999"));
        CHECK(std::filesystem::exists(dir / "lock"));
    }
    std::ofstream(dir / "notes.tmpx") << "mine";  // not a stand temporary: an experiment's file
    CHECK_THROWS_WITH_AS(RunLock::for_new_run(dir), doctest::Contains("not empty"), UserError);
}
