// The fio probe through a plugin worker: refusals before any I/O, and a short
// real run of fio 3.33 in /var/tmp.
#include "isolation/plugin_worker.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

using namespace std::chrono_literals;

namespace {

std::filesystem::path fio_plugin() { return stand::test::build_dir() / "plugins" / "fio.so"; }

struct VarTmpDir {
    std::string path = "/var/tmp/stand-fio-test-XXXXXX";
    VarTmpDir() { REQUIRE(::mkdtemp(path.data()) != nullptr); }
    ~VarTmpDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

stand::isolation::WorkerOptions options(const std::string& run_dir) {
    stand::isolation::WorkerOptions o;
    o.plugin_file = fio_plugin();
    o.plugin_id = "fio";
    o.host.run_dir = run_dir;
    o.stand_binary = stand::test::stand_binary();
    return o;
}

std::string text(const boost::json::object& o, const char* key) { return std::string(o.at(key).as_string()); }

// Sets an environment variable for the scope (the worker inherits it).
struct ScopedEnv {
    std::string name;
    std::string old;
    bool had;
    ScopedEnv(const char* n, const char* value) : name(n), had(std::getenv(n) != nullptr) {
        if (had) old = std::getenv(n);
        ::setenv(n, value, 1);
    }
    ~ScopedEnv() {
        if (had) ::setenv(name.c_str(), old.c_str(), 1);
        else ::unsetenv(name.c_str());
    }
};

}  // namespace

TEST_CASE("fio probe: the disk probe's jobs, and tmpfs, unknown jobs, bad engines and a missing fio refused before any I/O") {
    REQUIRE(std::filesystem::exists(fio_plugin()));
    VarTmpDir dir;
    stand::isolation::PluginWorker worker(options(dir.path));
    auto created = worker.create(R"({"box": ""})", 10s);
    REQUIRE_MESSAGE(created.ok(), created.error);

    auto jobs = worker.call("probe.list_jobs", {}, 10s);
    REQUIRE(jobs.ok());
    std::vector<std::string> ids;
    for (const auto& j : jobs.output.as_array()) ids.emplace_back(j.at("id").as_string());
    CHECK(ids == std::vector<std::string>{"seq1m-q8t1-read", "seq1m-q8t1-write", "seq1m-q1t1-read", "seq1m-q1t1-write",
                                          "rnd4k-q32t1-read", "rnd4k-q32t1-write", "rnd4k-q1t1-read", "rnd4k-q1t1-write"});

    if (std::filesystem::exists("/dev/shm")) {
        auto shm = worker.call("probe.prepare", {{"job", "rnd4k-q1t1-read"}, {"params", {{"dir", "/dev/shm"}, {"size_mib", 1}}}}, 10s);
        CHECK(shm.code == STAND_E_INVALID_ARGUMENT);
        CHECK(shm.error ==
              "fio: refusing test directory /dev/shm: it is on tmpfs (mount /dev/shm), which is RAM, not a disk; "
              "choose a directory on the disk under test");
    }
    CHECK(worker.call("probe.prepare", {{"job", "nope"}, {"params", boost::json::object{}}}, 10s).code == STAND_E_NOT_FOUND);
    auto engine = worker.call("probe.prepare", {{"job", "rnd4k-q1t1-read"}, {"params", {{"engine", "psync"}}}}, 10s);
    CHECK(engine.code == STAND_E_INVALID_ARGUMENT);
    CHECK(engine.error == "fio: params.engine: \"psync\" (expected \"io_uring\" or \"libaio\")");
    CHECK(worker.call("probe.run", {{"job", "rnd4k-q1t1-read"}}, 10s).code == STAND_E_BAD_STATE);
    CHECK(worker.shutdown(10s).ok());

    ScopedEnv no_fio("PATH", "/nonexistent");
    stand::isolation::PluginWorker bare(options(dir.path));
    REQUIRE(bare.create(R"({"box": ""})", 10s).ok());
    auto missing = bare.call("probe.prepare", {{"job", "rnd4k-q1t1-read"}, {"params", {{"dir", dir.path}, {"size_mib", 1}}}}, 10s);
    CHECK(missing.code == STAND_E_UNSUPPORTED);
    CHECK(missing.error == "fio: the fio binary was not found on PATH (apt-get install fio)");
    CHECK(bare.shutdown(10s).ok());
    for (const auto& e : std::filesystem::directory_iterator(dir.path))  // no test file was made
        CHECK_FALSE(e.path().filename().string().starts_with("stand-fio."));
}

TEST_CASE("fio probe: a short real fio run reports the probe metrics, the clat histogram and fio's command") {
    REQUIRE(std::filesystem::exists(fio_plugin()));
    if (::system("fio --version >/dev/null 2>&1") != 0) {
        MESSAGE("fio is not installed; ./stand.sh installs it");
        return;
    }
    VarTmpDir dir;
    stand::isolation::PluginWorker worker(options(dir.path));
    REQUIRE(worker.create(R"({"box": ""})", 10s).ok());
    auto prepared = worker.call("probe.prepare",
                                {{"job", "rnd4k-q32t1-read"}, {"params", {{"dir", dir.path}, {"size_mib", 8}, {"duration_s", 1}}}}, 60s);
    REQUIRE_MESSAGE(prepared.ok(), prepared.error);
    const std::string file = dir.path + "/stand-fio." + std::to_string(worker.pid()) + ".rnd4k-q32t1-read.dat";
    REQUIRE(std::filesystem::exists(file));
    CHECK(std::filesystem::file_size(file) == 8u << 20);

    auto run = worker.call("probe.run", {{"job", "rnd4k-q32t1-read"}}, 60s);
    REQUIRE_MESSAGE(run.ok(), run.error);
    const auto& out = run.output.as_object();
    const auto& m = out.at("metrics").as_object();
    for (const char* k : {"mb_s", "mib_s", "iops", "lat_mean_us", "cpu_s", "cpu_pct", "cpu_us_per_io", "ios", "seconds"})
        CHECK_MESSAGE(m.at(k).to_number<double>() > 0, k);
    CHECK(m.at("mib_s").to_number<double>() * 1.048576 == doctest::Approx(m.at("mb_s").to_number<double>()));
    CHECK(m.at("iops").to_number<double>() * 4096 / 1e6 == doctest::Approx(m.at("mb_s").to_number<double>()));
    CHECK(m.at("block_size").to_number<double>() == 4096);
    CHECK(m.at("queue_depth").to_number<double>() == 32);
    CHECK(m.at("jobs").to_number<double>() == 1);
    CHECK(m.at("size_mib").to_number<double>() == 8);
    CHECK_FALSE(m.contains("lat_p50_us"));  // the host computes percentiles from the histogram

    const auto& hist = out.at("latency_histogram_ns").as_array();
    REQUIRE_FALSE(hist.empty());
    std::uint64_t count = 0, last = 0;
    for (const auto& bin : hist) {
        const auto value = bin.as_array().at(0).to_number<std::uint64_t>();
        CHECK(value > last);
        last = value;
        count += bin.as_array().at(1).to_number<std::uint64_t>();
    }
    CHECK(count == m.at("ios").to_number<std::uint64_t>());

    const auto& facts = out.at("facts").as_object();
    CHECK(text(facts, "tool") == "fio");
    CHECK(facts.at("fio_version").as_string().starts_with("fio-"));
    CHECK(text(facts, "engine") == "io_uring");
    CHECK(text(facts, "file") == file);
    CHECK(text(facts, "dir") == dir.path);
    CHECK(facts.at("filesystem").as_string().size() > 0);
    CHECK(text(facts, "command") == "fio --name=rnd4k-q32t1-read --filename=" + file +
                                     " --size=8388608 --rw=randread --bs=4096 --iodepth=32 --numjobs=1 --ioengine=io_uring"
                                     " --direct=1 --time_based --runtime=1 --ramp_time=0 --randrepeat=0 --group_reporting"
                                     " --output-format=json+");
    CHECK(out.at("notes").is_array());

    CHECK(worker.call("probe.cleanup", {{"job", "rnd4k-q32t1-read"}}, 10s).code == STAND_OK);
    CHECK_FALSE(std::filesystem::exists(file));
    CHECK(worker.call("probe.cleanup", {{"job", "rnd4k-q32t1-read"}}, 10s).code == STAND_OK_NOTHING_TO_DO);
    CHECK(worker.shutdown(10s).ok());
}
