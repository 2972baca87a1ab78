// The disk probe: its latency histogram directly, the plugin through a plugin
// worker (tmpfs refusal, a short real run in /var/tmp).
#include "../../plugins/disk/latency_histogram.hpp"
#include "isolation/plugin_worker.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace std::chrono_literals;
using stand_disk::LatencyHistogram;

TEST_CASE("disk probe: histogram buckets are exact below 2048 ns and at most 1/1024 of their values wide above") {
    for (std::uint64_t v : {0ull, 1ull, 2047ull, 2048ull, 2049ull, 4097ull, 65535ull, 1'000'000ull, 123'456'789'012ull}) {
        CAPTURE(v);
        auto i = LatencyHistogram::index_of(v);
        REQUIRE(i < LatencyHistogram::kBuckets);
        auto lo = LatencyHistogram::lowest_of(i);
        auto width = LatencyHistogram::lowest_of(i + 1 < LatencyHistogram::kBuckets ? i + 1 : i) - lo;
        CHECK(lo <= v);
        if (v < 2048) CHECK(lo == v);
        CHECK(static_cast<double>(width) <= std::max(1.0, static_cast<double>(lo) / 1024.0));
        CHECK(LatencyHistogram::middle_of(i) >= lo);
        CHECK(LatencyHistogram::middle_of(i) - lo <= width / 2);
    }
    CHECK(LatencyHistogram::index_of(UINT64_MAX) == LatencyHistogram::kBuckets - 1);
    bool ascending = true;
    for (unsigned i = 1; i < LatencyHistogram::kBuckets; ++i)
        ascending = ascending && LatencyHistogram::lowest_of(i) > LatencyHistogram::lowest_of(i - 1) &&
                    LatencyHistogram::index_of(LatencyHistogram::lowest_of(i)) == i;
    CHECK(ascending);
}

TEST_CASE("disk probe: the histogram lists its non-empty buckets ascending as (middle, count)") {
    LatencyHistogram h;
    for (std::uint64_t v : {100'000ull, 1500ull, 100'010ull, 1500ull, 7'000'000ull}) h.record(v);
    const auto b = h.buckets();
    REQUIRE(b.size() == 3);
    CHECK(b[0] == std::pair<std::uint64_t, std::uint64_t>{1500, 2});
    CHECK(b[1].second == 2);  // 100 000 and 100 010 share a 64 ns bucket
    CHECK(static_cast<double>(b[1].first) == doctest::Approx(100'005.0).epsilon(0.001));
    CHECK(b[2].second == 1);
    CHECK(static_cast<double>(b[2].first) == doctest::Approx(7'000'000.0).epsilon(0.001));
    CHECK(LatencyHistogram().buckets().empty());
}

TEST_CASE("disk probe: percentiles of a uniform 1..10000 us spread") {
    LatencyHistogram a, b;
    for (std::uint64_t us = 1; us <= 10000; ++us) (us % 2 ? a : b).record(us * 1000);
    a.add(b);
    CHECK(a.count() == 10000);
    CHECK(a.min() == 1000);
    CHECK(a.max() == 10'000'000);
    CHECK(a.mean() == doctest::Approx(5'000'500.0));
    CHECK(static_cast<double>(a.percentile(50)) == doctest::Approx(5'000'000.0).epsilon(0.01));
    CHECK(static_cast<double>(a.percentile(99)) == doctest::Approx(9'900'000.0).epsilon(0.01));
    CHECK(static_cast<double>(a.percentile(99.9)) == doctest::Approx(9'990'000.0).epsilon(0.01));
    CHECK(a.percentile(100) == 10'000'000);
    CHECK(LatencyHistogram().percentile(50) == 0);
}

namespace {

std::filesystem::path disk_plugin() { return stand::test::build_dir() / "plugins" / "disk.so"; }

}  // namespace

TEST_CASE("disk probe: tmpfs is refused before any I/O; a short run in /var/tmp reports its metrics") {
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
