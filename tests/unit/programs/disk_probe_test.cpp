// The disk probe (build/plugins/disk.so) through a plugin worker: tmpfs
// refused, a short real run in /var/tmp. Its latency histogram:
// plugins/disk/tests/latency_histogram_test.cpp.
#include "isolation/plugin_worker.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace std::chrono_literals;

namespace {

std::filesystem::path disk_plugin() { return stand::test::build_dir() / "plugins" / "disk.so"; }

}  // namespace

TEST_CASE("disk probe: tmpfs is refused before any I/O, a short run in /var/tmp reports its metrics") {
    if (!std::filesystem::exists(disk_plugin())) {
        MESSAGE("disk.so is not built (liburing-dev missing?)");
        return;
    }
    std::string dir = "/var/tmp/stand-disk-test-XXXXXX";
    REQUIRE(::mkdtemp(dir.data()) != nullptr);
    stand::isolation::WorkerOptions o;
    o.plugin_file = disk_plugin();
    o.plugin_id = "disk";
    o.host.run_dir = dir;
    o.stand_binary = stand::test::stand_binary();
    stand::isolation::PluginWorker worker(o);
    auto created = worker.create("{}", 10s);
    REQUIRE_MESSAGE(created.ok(), created.error);

    auto jobs = worker.call("probe.list_jobs", {}, 10s);
    REQUIRE(jobs.ok());
    CHECK(jobs.output.as_array().size() == 8);

    if (std::filesystem::exists("/dev/shm")) {
        auto shm = worker.call("probe.prepare", {{"job", "rnd4k-q1t1-read"}, {"params", {{"dir", "/dev/shm"}, {"size_mib", 1}}}}, 10s);
        CHECK(shm.code == STAND_E_INVALID_ARGUMENT);
        CHECK(shm.error.find("tmpfs") != std::string::npos);
        CHECK(shm.error.find("/dev/shm") != std::string::npos);
    }
    CHECK(worker.call("probe.prepare", {{"job", "nope"}, {"params", boost::json::object{}}}, 10s).code == STAND_E_NOT_FOUND);
    CHECK(worker.call("probe.run", {{"job", "rnd4k-q1t1-read"}}, 10s).code == STAND_E_BAD_STATE);

    {  // a caller's file must be written in full: a sparse one is refused, a written one is used and kept
        const std::string sparse = dir + "/sparse.dat";
        std::ofstream(sparse).close();
        std::filesystem::resize_file(sparse, 1 << 20);  // one hole of 1 MiB
        auto holey = worker.call("probe.prepare", {{"job", "rnd4k-q1t1-read"}, {"params", {{"file", sparse}, {"size_mib", 1}}}}, 10s);
        CHECK(holey.code == STAND_E_INVALID_ARGUMENT);
        CHECK(holey.error.find("hole") != std::string::npos);
        CHECK(worker.call("probe.prepare", {{"job", "rnd4k-q1t1-read"}, {"params", {{"file", sparse}, {"dir", dir}}}}, 10s).code ==
              STAND_E_INVALID_ARGUMENT);
        const std::string written = dir + "/written.dat";
        std::ofstream(written, std::ios::binary) << std::string(1 << 20, 'x');
        auto given = worker.call("probe.prepare", {{"job", "rnd4k-q1t1-read"},
                                                   {"params", {{"file", written}, {"size_mib", 1}, {"duration_s", 1}, {"engine", "libaio"}}}},
                                 10s);
        REQUIRE_MESSAGE(given.ok(), given.error);
        auto given_run = worker.call("probe.run", {{"job", "rnd4k-q1t1-read"}}, 30s);
        REQUIRE_MESSAGE(given_run.ok(), given_run.error);
        CHECK(given_run.output.at("facts").at("file_given").as_bool());
        CHECK(given_run.output.at("facts").at("engine").as_string() == "libaio");
        CHECK(given_run.output.at("metrics").at("ios").to_number<double>() > 0);
        CHECK(worker.call("probe.cleanup", {{"job", "rnd4k-q1t1-read"}}, 10s).code == STAND_OK);
        CHECK(std::filesystem::file_size(written) == 1u << 20);
        std::filesystem::remove(sparse);
        std::filesystem::remove(written);
    }

    auto prepared = worker.call("probe.prepare",
                                {{"job", "rnd4k-q32t1-read"}, {"params", {{"dir", dir}, {"size_mib", 8}, {"duration_s", 1}}}}, 60s);
    REQUIRE_MESSAGE(prepared.ok(), prepared.error);
    auto again = worker.call("probe.prepare",  // a second job of the same size reuses the file
                             {{"job", "rnd4k-q1t1-write"}, {"params", {{"dir", dir}, {"size_mib", 8}, {"duration_s", 1}}}}, 60s);
    REQUIRE_MESSAGE(again.ok(), again.error);
    auto run = worker.call("probe.run", {{"job", "rnd4k-q32t1-read"}}, 30s);
    REQUIRE_MESSAGE(run.ok(), run.error);
    const auto& m = run.output.at("metrics").as_object();
    CHECK(m.at("iops").to_number<double>() > 0);
    CHECK(m.at("mib_s").to_number<double>() * 1.048576 == doctest::Approx(m.at("mb_s").to_number<double>()));
    CHECK_FALSE(m.contains("lat_p50_us"));  // the host computes percentiles from the histogram
    CHECK_FALSE(m.contains("lat_p99_us"));
    {
        const auto& hist = run.output.at("latency_histogram_ns").as_array();
        REQUIRE_FALSE(hist.empty());
        double previous = -1, total = 0;
        for (const auto& bucket : hist) {
            const auto& pair = bucket.as_array();
            REQUIRE(pair.size() == 2);
            CHECK(pair[0].to_number<double>() > previous);
            CHECK(pair[1].to_number<double>() > 0);
            previous = pair[0].to_number<double>();
            total += pair[1].to_number<double>();
        }
        CHECK(total == m.at("ios").to_number<double>());
        CHECK(previous <= m.at("lat_max_us").to_number<double>() * 1000 * 1.001);
        const auto& notes = run.output.at("notes").as_array();
        REQUIRE(notes.size() >= 1);
        CHECK(std::string(notes[0].as_string()).find("cannot be verified from inside a VM") != std::string::npos);
        CHECK_FALSE(run.output.as_object().contains("latency_ns"));
    }
    CHECK(m.at("queue_depth").to_number<double>() == 32);
    CHECK(m.contains("cpu_us_per_io"));
    CHECK(run.output.at("facts").at("filesystem").as_string().size() > 0);
    CHECK(run.output.at("facts").at("engine").as_string() == "io_uring");
    CHECK_FALSE(run.output.at("facts").at("file_reused").as_bool());
    CHECK(m.at("prepare_s").to_number<double>() > 0);
    auto write_run = worker.call("probe.run", {{"job", "rnd4k-q1t1-write"}}, 30s);
    REQUIRE_MESSAGE(write_run.ok(), write_run.error);
    CHECK(write_run.output.at("facts").at("file_reused").as_bool());
    CHECK(write_run.output.at("metrics").at("prepare_s").to_number<double>() == 0);
    CHECK(write_run.output.at("facts").at("file").as_string() == run.output.at("facts").at("file").as_string());
    const std::string shared_file(run.output.at("facts").at("file").as_string());
    CHECK(worker.call("probe.cleanup", {{"job", "rnd4k-q1t1-write"}}, 10s).code == STAND_OK);
    CHECK(worker.call("probe.cleanup", {{"job", "rnd4k-q32t1-read"}}, 10s).code == STAND_OK);
    CHECK(std::filesystem::exists(shared_file));  // kept for the instance's next jobs
    CHECK(worker.call("probe.cleanup", {{"job", "rnd4k-q32t1-read"}}, 10s).code == STAND_OK_NOTHING_TO_DO);
    CHECK(worker.shutdown(10s).ok());
    for (const auto& e : std::filesystem::directory_iterator(dir))  // the test file is gone
        CHECK_FALSE(e.path().filename().string().starts_with("stand-disk-"));
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}
