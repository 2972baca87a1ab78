// A command's output files checked before its work (cli/output_file.hpp):
// an empty name, a link whose target cannot be made, and two options that
// name one file are refused, each naming the option and the file.
#include "cli/args.hpp"
#include "cli/output_file.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using stand::cli::check_output_file;
using stand::cli::refuse_same_output_file;
using stand::cli::UsageError;

namespace {

// What check_output_file() said; "" when it took the file.
std::string refusal(const std::string& file) {
    try {
        check_output_file("load", "hdr-log", file);
        return {};
    } catch (const UsageError& e) {
        return e.what();
    }
}

std::string same(const std::string& a, const std::string& b) {
    try {
        refuse_same_output_file("load", "hdr-log", a, "histogram-out", b);
        return {};
    } catch (const UsageError& e) {
        return e.what();
    }
}

}  // namespace

TEST_CASE("output file: an empty name, a dangling link, a loop and a device are refused before the work") {
    stand::test::TempDir dir;
    const std::string d = dir.path().string();
    CHECK(refusal("") == "load: --hdr-log: an empty file name; name a file");
    fs::create_symlink(d + "/gone/x.hlog", d + "/dangling");
    CHECK(refusal(d + "/dangling") ==
          "load: --hdr-log " + d + "/dangling: a link to " + d + "/gone/x.hlog: cannot write into " + d + "/gone");
    fs::create_symlink("made.hlog", d + "/to-new");  // a dangling link whose target can be made: the write makes it
    CHECK(refusal(d + "/to-new").empty());
    fs::create_symlink(d + "/loop-b", d + "/loop-a");
    fs::create_symlink(d + "/loop-a", d + "/loop-b");
    CHECK(refusal(d + "/loop-a") == "load: --hdr-log " + d + "/loop-a: a loop of links; name a file");
    CHECK(refusal("/dev/null").find("/dev/null: not a regular file") != std::string::npos);
    CHECK(refusal(d).find(": not a regular file") != std::string::npos);
    CHECK(refusal(d + "/new.hlog").empty());
    std::ofstream(d + "/old.hlog") << "x";
    CHECK(refusal(d + "/old.hlog").empty());
}

TEST_CASE("output file: two options naming one file are refused, however it is spelled") {
    stand::test::TempDir dir;
    const std::string d = dir.path().string();
    CHECK(same(d + "/a", d + "/b").empty());
    CHECK(same(d + "/a", d + "/./a") ==
          "load: --hdr-log " + d + "/a and --histogram-out " + d + "/./a name the same file; one would overwrite the "
          "other: give two files");
    fs::create_symlink("b", d + "/alias");  // b does not exist yet: the link's target is what is written
    CHECK_FALSE(same(d + "/alias", d + "/b").empty());
    fs::create_directory(d + "/sub");
    CHECK_FALSE(same(d + "/sub/../a", d + "/a").empty());
    std::ofstream(d + "/c") << "x";
    fs::create_hard_link(d + "/c", d + "/c2");
    CHECK_FALSE(same(d + "/c", d + "/c2").empty());
}
