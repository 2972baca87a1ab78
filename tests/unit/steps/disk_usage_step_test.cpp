// disk_usage: the size of what the plugin installed, from lifecycle.facts:
// the files under its data_dirs (<step>.data_mib, symlinks not followed),
// its artifacts' bytes (<step>.artifacts_mib) and its container count.
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace stand::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMiB = 1024 * 1024;

void file_of(const fs::path& file, std::uintmax_t bytes) {
    fs::create_directories(file.parent_path());
    std::ofstream(file).put('x');
    fs::resize_file(file, bytes);
}

// A plugin whose data dir holds 1.5 MiB in two files (and a symlink to one,
// not counted again), with two images of 1 and 3 MiB and 2 containers.
void plugin_with_data(StepBench& b) {
    const fs::path data = b.temp.path() / "data";
    file_of(data / "db.sqlite", kMiB);
    file_of(data / "logs" / "access.log", kMiB / 2);
    fs::create_symlink(data / "db.sqlite", data / "db-link");
    b.port.answer(PortCall::facts,
                  json::value(json::object{
                      {"data_dirs", {data.string(), (b.temp.path() / "not-there").string()}},
                      {"containers", 2},
                      {"artifacts", {json::object{{"name", "panel:1.2"}, {"bytes", kMiB}},
                                     json::object{{"name", "xray:25.1"}, {"bytes", 3 * kMiB}},
                                     json::object{{"name", "no size"}}}}}));
}

}  // namespace

STAND_STEP_SAMPLE({"disk_usage", R"({"step": "disk_usage"})", "", plugin_with_data});

TEST_CASE("disk_usage step: the data dirs' files, the artifacts' bytes and the containers from the facts") {
    StepBench b(R"({"step": "disk_usage", "name": "du"})");
    plugin_with_data(b);
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].call == PortCall::facts);
    CHECK(b.port.calls()[0].timeout == std::chrono::seconds(60));
    // The symlink and the missing dir add nothing.
    CHECK(b.metric("du.data_mib") == doctest::Approx(1.5));
    // An artifact without "bytes" adds nothing.
    CHECK(b.metric("du.artifacts_mib") == doctest::Approx(4.0));
    CHECK(b.metric("du.containers") == 2);
    CHECK(b.ctx.record.metrics.size() == 3);
    CHECK(b.ctx.record.findings.empty());
}

TEST_CASE("disk_usage step: only data_mib when the facts have no containers or artifacts") {
    StepBench b(R"({"step": "disk_usage", "name": "du"})");
    const fs::path data = b.temp.path() / "data";
    file_of(data / "config.json", kMiB / 4);
    b.port.answer(PortCall::facts, json::value(json::object{{"data_dirs", {data.string(), 7}},
                                                            {"containers", "two"},
                                                            {"artifacts", "none"}}));
    CHECK(b.failure_of_all() == "");
    CHECK(b.metric("du.data_mib") == doctest::Approx(0.25));
    // Entries and keys of another type are passed over.
    CHECK_FALSE(b.metric("du.containers").has_value());
    CHECK_FALSE(b.metric("du.artifacts_mib").has_value());

    StepBench none(R"({"step": "disk_usage", "name": "du"})");
    none.port.answer(PortCall::facts, json::value(json::object{{"data_dirs", json::array{}}}));
    CHECK(none.failure_of_all() == "");
    CHECK(none.metric("du.data_mib") == 0);
    CHECK(none.ctx.record.metrics.size() == 1);
}

TEST_CASE("disk_usage step: a failed or malformed facts answer ends the repetition naming the call") {
    StepBench failed(R"({"step": "disk_usage"})");
    failed.port.answer(PortCall::facts, [](const json::object&) { return reply_error(STAND_E_IO, "docker ps: exit 1"); });
    CHECK(failed.failure_of_all() == "lifecycle.facts: docker ps: exit 1");
    CHECK(failed.ctx.record.metrics.empty());

    StepBench no_dirs(R"({"step": "disk_usage"})");
    no_dirs.port.answer(PortCall::facts, json::value(json::object{{"containers", 1}}));
    CHECK(no_dirs.failure_of_all() == "lifecycle.facts has no data_dirs");
    CHECK(no_dirs.ctx.record.metrics.empty());

    StepBench dirs_not_list(R"({"step": "disk_usage"})");
    dirs_not_list.port.answer(PortCall::facts, json::value(json::object{{"data_dirs", "/var/lib/panel"}}));
    CHECK(dirs_not_list.failure_of_all() == "lifecycle.facts has no data_dirs");

    StepBench not_object(R"({"step": "disk_usage"})");  // the default answer: no output at all
    CHECK(not_object.failure_of_all() == "lifecycle.facts has no data_dirs");

    // An artifact's size that is not a number counts nothing rather than ending the run.
    StepBench text_bytes(R"({"step": "disk_usage", "name": "du"})");
    text_bytes.port.answer(PortCall::facts,
                           json::value(json::object{{"data_dirs", json::array{}},
                                                    {"artifacts", {json::object{{"name", "x"}, {"bytes", "12 MB"}}}}}));
    CHECK(text_bytes.failure_of_all() == "");
    CHECK(text_bytes.metric("du.artifacts_mib") == 0);
}
