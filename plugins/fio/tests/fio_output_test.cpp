// The fio probe's parts without a host: the exact fio command lines, and the
// parser on real fio 3.33 json+ output saved in tests/data/fio/ (see its
// README for how each sample was made).
#include "fio_command.hpp"
#include "fio_output.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using stand_fio::FioOutputError;

namespace {

std::string sample(const char* name) {
    const auto path = std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests" / "data" / "fio" / name;
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "missing sample " << path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string error_of(std::string_view output, int exit_code) {
    try {
        stand_fio::read_fio_run(output, exit_code);
    } catch (const FioOutputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("fio output: a random 4 KiB read through io_uring, every number") {
    const auto r = stand_fio::read_fio_run(sample("rnd4k-q1t1-read.io_uring.out"), 0);
    CHECK(r.version == "fio-3.33");
    CHECK(r.job_name == "rnd4k-q1t1-read");
    CHECK(r.error == 0);
    CHECK(r.other_lines.empty());
    CHECK(r.job_runtime_ms == 1000);
    CHECK(r.usr_cpu_pct == doctest::Approx(1.9));
    CHECK(r.sys_cpu_pct == doctest::Approx(26.1));
    CHECK(r.read.io_bytes == 50790400);
    CHECK(r.read.total_ios == 12400);
    CHECK(r.read.runtime_ms == 1001);
    CHECK(r.read.lat_mean_ns == doctest::Approx(79601.484435));
    REQUIRE(r.read.clat_bins.size() == 289);
    CHECK(r.read.clat_bins.front() == std::pair<std::uint64_t, std::uint64_t>{342, 1});
    CHECK(r.read.clat_bins.back() == std::pair<std::uint64_t, std::uint64_t>{19267584, 1});
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < r.read.clat_bins.size(); ++i) {
        total += r.read.clat_bins[i].second;
        if (i > 0) CHECK(r.read.clat_bins[i - 1].first < r.read.clat_bins[i].first);
    }
    CHECK(total == r.read.total_ios);
    CHECK(r.write.io_bytes == 0);
    CHECK(r.write.clat_bins.empty());

    const auto m = stand_fio::metrics_of(r, false);
    CHECK(m.seconds == doctest::Approx(1.001));
    CHECK(m.mb_s == doctest::Approx(50790400.0 / 1.001 / 1e6));
    CHECK(m.mib_s == doctest::Approx(50790400.0 / 1.001 / 1048576.0));
    CHECK(m.mb_s * 1e6 == doctest::Approx(50739660.0).epsilon(1e-7));  // fio's own bw_bytes
    CHECK(m.iops == doctest::Approx(12387.612388));                     // fio's own iops
    CHECK(m.ios == 12400);
    CHECK(m.lat_mean_us == doctest::Approx(79.601484435));
    CHECK(m.cpu_pct == doctest::Approx(28.0));
    CHECK(m.cpu_s == doctest::Approx(0.28));
    CHECK(m.cpu_us_per_io == doctest::Approx(0.28e6 / 12400));
}

TEST_CASE("fio output: a sequential 1 MiB write reads the write side") {
    const auto r = stand_fio::read_fio_run(sample("seq1m-q8t1-write.io_uring.out"), 0);
    CHECK(r.read.io_bytes == 0);
    CHECK(r.write.io_bytes == 1414529024);
    CHECK(r.write.total_ios == 1349);
    CHECK(r.write.io_bytes == r.write.total_ios * 1048576);
    REQUIRE(r.write.clat_bins.size() == 126);
    CHECK(r.write.clat_bins.front() == std::pair<std::uint64_t, std::uint64_t>{724992, 1});
    CHECK(r.write.clat_bins.back() == std::pair<std::uint64_t, std::uint64_t>{40108032, 8});

    const auto m = stand_fio::metrics_of(r, true);
    CHECK(m.seconds == doctest::Approx(1.004));
    CHECK(m.mb_s * 1e6 == doctest::Approx(1408893450.0).epsilon(1e-7));
    CHECK(m.iops == doctest::Approx(1343.625498));
    CHECK(m.lat_mean_us == doctest::Approx(5943.566818384));
    CHECK(m.cpu_pct == doctest::Approx(6.779661 + 9.272183));
    CHECK(m.cpu_s == doctest::Approx((6.779661 + 9.272183) / 100 * 1.003));
    CHECK(m.cpu_us_per_io == doctest::Approx(m.cpu_s * 1e6 / 1349));

    try {
        stand_fio::metrics_of(r, false);
        FAIL("a write run has no read numbers");
    } catch (const FioOutputError& e) {
        CHECK(std::string(e.what()) == "fio reported no read I/O (jobs[0].read.io_bytes 0, runtime 0 ms)");
    }
}

TEST_CASE("fio output: libaio at queue depth 32") {
    const auto r = stand_fio::read_fio_run(sample("rnd4k-q32t1-read.libaio.out"), 0);
    const auto m = stand_fio::metrics_of(r, false);
    CHECK(m.ios == 31360);
    CHECK(m.iops == doctest::Approx(31328.671329));
    CHECK(m.mb_s * 1e6 == doctest::Approx(128322237.0).epsilon(1e-7));
    CHECK(m.lat_mean_us == doctest::Approx(1018.121313329));
    CHECK(m.cpu_pct == doctest::Approx(40.5));
    CHECK(r.read.clat_bins.size() == 372);
    CHECK(r.read.clat_bins.back() == std::pair<std::uint64_t, std::uint64_t>{24510464, 31});
}

TEST_CASE("fio output: lines before and after the JSON are kept as notes, not parsed") {
    const auto r = stand_fio::read_fio_run(sample("noise-before-after.out"), 0);
    CHECK(r.other_lines == std::vector<std::string>{
                               "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1",
                               "fio: file hash not empty on exit"});
    CHECK(r.read.total_ios == 12253);
    CHECK(r.read.io_bytes == 50188288);
    CHECK(stand_fio::metrics_of(r, false).iops == doctest::Approx(12240.759241));

    // A '{' line that is not fio's document, and an object without "jobs", come first.
    const std::string real = sample("rnd4k-q1t1-read.io_uring.out");
    const auto r2 = stand_fio::parse_fio_output("{ not json\n{\"a\": 1}\n" + real);
    CHECK(r2.read.total_ios == 12400);
    CHECK(r2.other_lines == std::vector<std::string>{"{ not json", "{\"a\": 1}"});
}

TEST_CASE("fio output: a job error names the errno, the exit code and what fio printed") {
    const std::string out = sample("job-error.out");
    CHECK(stand_fio::parse_fio_output(out).error == 1);
    CHECK(error_of(out, 1) ==
          "jobs[0].error is 1 (Operation not permitted); fio exited with code 1; it printed: "
          "fio: pid=0, err=1/file:filesetup.c:150, func=unlink, error=Operation not permitted");
}

TEST_CASE("fio output: no JSON, truncated JSON and wrong types are named errors") {
    const std::string truncated = sample("truncated.out");
    const std::string e = error_of(truncated, 0);
    CHECK(e.starts_with("no complete JSON object in fio's output (7000 bytes); fio exited with code 0; it printed: { | "));
    CHECK(e.ends_with("more lines)"));

    CHECK(error_of("", 1) == "no complete JSON object in fio's output (0 bytes); fio exited with code 1; it printed nothing");
    const std::string bad_engine = "fio: failed parsing ioengine=nope\nfio: job global dropped\n";
    CHECK(error_of(bad_engine, 1) == "no complete JSON object in fio's output (" + std::to_string(bad_engine.size()) +
                                         " bytes); fio exited with code 1; it printed: "
                                         "fio: failed parsing ioengine=nope | fio: job global dropped");

    std::string wrong = sample("rnd4k-q1t1-read.io_uring.out");
    const auto at = wrong.find("\"total_ios\" : 12400");
    REQUIRE(at != std::string::npos);
    wrong.replace(at, 19, "\"total_ios\" : \"many\"");
    CHECK(error_of(wrong, 0).starts_with(
        "fio's JSON: jobs[0].read.total_ios: expected a non-negative integer; fio exited with code 0; it printed: { | "));
}

TEST_CASE("fio command: the exact argv of a measured run and of the layout") {
    stand_fio::FioJobSpec spec;
    spec.name = "rnd4k-q32t1-read";
    spec.path = "/var/tmp/stand-fio.42.rnd4k-q32t1-read.dat";
    spec.size_bytes = 16 * 1048576;
    spec.random = true;
    spec.block_size = 4096;
    spec.queue_depth = 32;
    spec.duration_s = 1;
    CHECK(stand_fio::run_argv(spec) ==
          std::vector<std::string>{"fio", "--name=rnd4k-q32t1-read", "--filename=/var/tmp/stand-fio.42.rnd4k-q32t1-read.dat",
                                   "--size=16777216", "--rw=randread", "--bs=4096", "--iodepth=32", "--numjobs=1",
                                   "--ioengine=io_uring", "--direct=1", "--time_based", "--runtime=1", "--ramp_time=0",
                                   "--randrepeat=0", "--group_reporting", "--output-format=json+"});
    CHECK(stand_fio::layout_argv(spec) ==
          std::vector<std::string>{"fio", "--name=layout-rnd4k-q32t1-read",
                                   "--filename=/var/tmp/stand-fio.42.rnd4k-q32t1-read.dat", "--size=16777216", "--rw=read",
                                   "--bs=1M", "--direct=1", "--fallocate=none", "--create_only=1", "--output-format=json"});

    spec.random = false;
    spec.write = true;
    spec.engine = "libaio";
    spec.path = "/mnt/my disk/f.dat";
    const auto argv = stand_fio::run_argv(spec);
    CHECK(argv[4] == "--rw=write");
    CHECK(argv[8] == "--ioengine=libaio");
    CHECK(stand_fio::command_line({"fio", "--name=x", "--filename=/mnt/my disk/it's.dat"}) ==
          "fio --name=x '--filename=/mnt/my disk/it'\\''s.dat'");

    REQUIRE(stand_fio::job_catalogue().size() == 8);
    const auto* q8 = stand_fio::find_job("seq1m-q8t1-write");
    REQUIRE(q8 != nullptr);
    CHECK(q8->write);
    CHECK_FALSE(q8->random);
    CHECK(q8->block_size == 1048576);
    CHECK(q8->queue_depth == 8);
    CHECK(stand_fio::find_job("rnd4k-q64t1-read") == nullptr);
}
