// The disk probe's shared test files: written once per (dir, size) and
// reused, removed with their last user or the instance, a leftover of the
// same name rewritten (never trusted), another probe's file (flock held) refused.
#include "test_files.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using stand_disk::TestFiles;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    std::string path = "/var/tmp/stand-disk-files-test-XXXXXX";
    TempDir() { REQUIRE(::mkdtemp(path.data()) != nullptr); }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const auto never = [] { return false; };
const auto ignore = [](double) {};

std::uint64_t allocated_bytes(const std::string& path) {
    struct stat st{};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return static_cast<std::uint64_t>(st.st_blocks) * 512;
}

}  // namespace

TEST_CASE("disk test files: one file per dir and size, written once, removed with its last user") {
    TempDir dir;
    CHECK(TestFiles::path_for(dir.path + "/", 2) == dir.path + "/stand-disk-2m.dat");
    TestFiles files;
    auto first = files.acquire(dir.path, 2, never, ignore);
    REQUIRE(first.has_value());
    CHECK_FALSE(first->reused);
    CHECK(first->write_s > 0);
    CHECK(fs::file_size(first->path) == 2u << 20);
    CHECK(allocated_bytes(first->path) >= 2u << 20);

    auto second = files.acquire(dir.path + "/", 2, never, ignore);
    REQUIRE(second.has_value());
    CHECK(second->reused);
    CHECK(second->path == first->path);
    CHECK(second->write_s == 0);

    auto other_size = files.acquire(dir.path, 1, never, ignore);
    REQUIRE(other_size.has_value());
    CHECK_FALSE(other_size->reused);
    CHECK(other_size->path != first->path);

    CHECK(files.release(first->path));
    CHECK(fs::exists(first->path));  // the second user still has it
    CHECK(files.release(first->path));
    CHECK_FALSE(fs::exists(first->path));
    CHECK_FALSE(files.holds(first->path));
    CHECK(fs::exists(other_size->path));
}

TEST_CASE("disk test files: a leftover of the same name is rewritten in full, others' files stay") {
    TempDir dir;
    const std::string leftover = TestFiles::path_for(dir.path, 2);
    std::ofstream(leftover).close();
    fs::resize_file(leftover, 2u << 20);  // right size, but sparse
    REQUIRE(allocated_bytes(leftover) < 2u << 20);
    const std::string unrelated = TestFiles::path_for(dir.path, 3);
    std::ofstream(unrelated) << "not ours";
    {
        TestFiles files;
        auto use = files.acquire(dir.path, 2, never, ignore);
        REQUIRE(use.has_value());
        CHECK_FALSE(use->reused);  // not trusted: written by this instance now
        CHECK(allocated_bytes(leftover) >= 2u << 20);
    }
    CHECK_FALSE(fs::exists(leftover));  // written by the instance, removed with it
    CHECK(fs::exists(unrelated));       // never touched
}

TEST_CASE("disk test files: a file another probe holds (flock) is refused and left alone, cancel removes a partial file") {
    TempDir dir;
    const std::string held = TestFiles::path_for(dir.path, 1);
    const int fd = ::open(held.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX) == 0);
    TestFiles files;
    CHECK_THROWS_WITH(files.acquire(dir.path, 1, never, ignore), doctest::Contains("in use by another disk probe"));
    CHECK(fs::exists(held));
    ::close(fd);

    auto cancelled = files.acquire(dir.path, 4, [] { return true; }, ignore);
    CHECK_FALSE(cancelled.has_value());
    CHECK_FALSE(fs::exists(TestFiles::path_for(dir.path, 4)));
}
