// Seed 004's pitfall checks, the probe result contract, io limits and the
// scenario keys the battery needs (step "plugin", box "io", "checks",
// "layout": "wide", "ratio_of").
#include "box/block_device.hpp"
#include "box/cgroup_fs.hpp"
#include "box/io_limits.hpp"
#include "box/process_placement.hpp"
#include "detect/host_facts.hpp"
#include "detect/result_checks.hpp"
#include "scenario/probe_result.hpp"
#include "scenario/scenario_parser.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand;
namespace json = boost::json;

namespace {

std::vector<detect::CheckOutcome> run_check(const std::string& check, const detect::RunValues& values) {
    return detect::evaluate_checks(json::parse("[" + check + "]").as_array(), values);
}

std::string battery(const std::string& extra_steps, const std::string& extra_top) {
    return R"({"schema_version": 1, "name": "b", "plugins": ["disk", "sysprobe"], "phases": [{"name": "p", "steps": [
      {"step": "run_probe", "plugin": "disk", "name": "rr", "job": "rnd4k-q32t1-read"},
      {"step": "run_probe", "plugin": "disk", "name": "rw", "job": "rnd4k-q32t1-write"},
      {"step": "run_probe", "plugin": "sysprobe", "name": "cpu", "job": "cpu-1t"})" +
           extra_steps + "]}]" + extra_top + "}";
}

std::string parse_error(const std::string& text) {
    try {
        auto s = scenario::parse_scenario_text(text, "b.json");
        scenario::check_step_plugins(s);
    } catch (const scenario::ScenarioError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("checks: the seed's Cloud4U plateau, read and write IOPS at Q32 equal within 0.01 %") {
    detect::RunValues v{{"disk", {{"rnd.iops", {40329, 40330, 40328}}, {"wr.iops", {40327, 40326, 40329}},
                                  {"rnd.block_size", {4096, 4096, 4096}}}}};
    auto out = run_check(R"({"check": "plateau_equal", "metrics": ["rnd.iops", "wr.iops"], "within_pct": 0.01})", v);
    REQUIRE(out.size() == 1);
    CHECK(out[0].status == "fired");
    CHECK(out[0].id == "limiter-suspected");
    CHECK(out[0].message.find("limiter suspected: rnd.iops 40329.0 and wr.iops 40327.0 are equal within 0.0050 %") == 0);
    CHECK(out[0].message.find("40328.0 IOPS (165.2 MB/s is 157.5 MiB/s)") != std::string::npos);

    v["disk"]["wr.iops"] = {54693, 54000, 55000};  // SmartApe: a live medium, read and write differ
    out = run_check(R"({"check": "plateau_equal", "metrics": ["rnd.iops", "wr.iops"], "within_pct": 0.01})", v);
    CHECK(out[0].status == "clear");
}

TEST_CASE("checks: the seed's Reg.ru plateau, a pass-to-pass spread below 0.05 %") {
    detect::RunValues v{{"disk", {{"q32.iops", {40132.5, 40132.7, 40132.6}}}}};
    auto out = run_check(R"({"check": "plateau_spread", "metric": "q32.iops", "below_pct": 0.05})", v);
    REQUIRE(out.size() == 1);
    CHECK(out[0].status == "fired");
    CHECK(out[0].message.find("varies only 0.0005 % across 3 passes (40132.5 to 40132.7") != std::string::npos);

    v["disk"]["q32.iops"] = {38822, 43702, 24126};
    CHECK(run_check(R"({"check": "plateau_spread", "metric": "q32.iops", "below_pct": 0.05})", v)[0].status == "clear");
    v["disk"]["q32.iops"] = {40132.5};
    CHECK(run_check(R"({"check": "plateau_spread", "metric": "q32.iops", "below_pct": 0.05})", v)[0].status ==
          "not evaluated");
}

TEST_CASE("checks: the plateau is printed in MB/s and MiB/s (526.0 MB/s is 501.6 MiB/s)") {
    detect::RunValues v{{"disk", {{"w8.mb_s", {526.0, 526.0, 526.0}}, {"w1.mb_s", {526.0, 526.0, 526.0}}}}};
    auto out = run_check(R"({"check": "plateau_equal", "metrics": ["w8.mb_s", "w1.mb_s"], "within_pct": 0.5})", v);
    REQUIRE(out.size() == 1);
    CHECK(out[0].status == "fired");
    CHECK(out[0].message.find("the plateau is 526.0 MB/s is 501.6 MiB/s") != std::string::npos);
    CHECK(detect::plateau_in_bytes("x.mib_s", 501.6, {}) == "526.0 MB/s is 501.6 MiB/s");
    CHECK(detect::plateau_in_bytes("x.iops", 1000, {}).empty());  // no block size: no bytes
}

TEST_CASE("checks: cache suspicion when the small file beats the control by more than 1.5x (RUVDS: 29.9x)") {
    detect::RunValues v{{"disk", {{"seq.mb_s", {1474.8, 1480, 1470}}, {"ctl.mb_s", {49.3, 49.2, 49.4}}}}};
    auto out = run_check(R"({"check": "cache", "metric": "seq.mb_s", "control": "ctl.mb_s", "above": 1.5})", v);
    REQUIRE(out.size() == 1);
    CHECK(out[0].status == "fired");
    CHECK(out[0].id == "cache-suspected");
    CHECK(out[0].message.find("is 29.9x the control") != std::string::npos);
    CHECK(out[0].message.find("writes were not controlled") != std::string::npos);

    v["disk"]["ctl.mb_s"] = {1450, 1460, 1470};  // 1.02x: clear, with what it does not exclude
    out = run_check(R"({"check": "cache", "metric": "seq.mb_s", "control": "ctl.mb_s", "above": 1.5})", v);
    CHECK(out[0].status == "clear");
    CHECK(out[0].message.find("a larger cache is not excluded") != std::string::npos);
}

TEST_CASE("checks: write-back when the Q1 write is faster than the read, anomalies above 1.3x") {
    detect::RunValues v{{"disk", {{"w.iops", {11721, 11000, 12000}}, {"r.iops", {5064, 5000, 5100}},
                                  {"sw.mb_s", {4269, 4365, 2901}}}}};
    auto out = run_check(R"({"check": "write_back", "write": "w.iops", "read": "r.iops"})", v);
    REQUIRE(out.size() == 1);
    CHECK(out[0].id == "write-back-suspected");
    CHECK(out[0].message.find("write-back suspected: w.iops 11721.0 is faster than r.iops 5064.0") == 0);  // medians

    out = run_check(R"({"check": "anomalies", "metrics": ["sw.mb_s", "r.iops"], "above": 1.3})", v);
    REQUIRE(out.size() == 1);
    CHECK(out[0].metric == "sw.mb_s");
    CHECK(out[0].message == "spread across passes x1.5 (4269.0, 4365.0, 2901.0)");
}

TEST_CASE("checks: a check without values says it was not evaluated") {
    auto out = run_check(R"({"check": "write_back", "write": "w.iops", "read": "r.iops"})", {{"disk", {}}});
    REQUIRE(out.size() == 1);
    CHECK(out[0].status == "not evaluated");
}

TEST_CASE("probe result: the host computes latency percentiles from the probe's histogram") {
    auto r = scenario::read_probe_result(json::parse(R"({"metrics": {"iops": 100},
        "latency_histogram_ns": [[100000, 50], [200000, 49], [5000000, 1]],
        "facts": {"filesystem": "ext4"}, "notes": ["n1"]})"));
    CHECK(r.metrics.at("iops") == 100);
    CHECK(r.metrics.at("lat_p50_us") == doctest::Approx(100.0).epsilon(0.002));
    CHECK(r.metrics.at("lat_p99_us") == doctest::Approx(200.0).epsilon(0.002));
    CHECK(r.metrics.at("lat_p999_us") == doctest::Approx(5000.0).epsilon(0.002));
    CHECK(r.facts.at("filesystem") == "ext4");
    REQUIRE(r.notes.size() == 1);

    auto error = [](const char* text) {
        try {
            scenario::read_probe_result(json::parse(text));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error(R"({"metrics": {"iops": "fast"}})") == R"(metrics.iops: expected a finite number, got "fast")");
    // found by tests/fuzz (probe_result): accepted before, as the metric "<step>."
    CHECK(error(R"({"metrics": {"": 7046}})") == "metrics: a metric with an empty name");
    CHECK(error(R"({"latency_histogram_ns": [[1, 2, 3]]})") == "latency_histogram_ns[0]: expected [value_ns, count], got [1,2,3]");
    CHECK(error(R"({"latency_histogram_ns": [[-1, 2]]})") == "latency_histogram_ns[0][0]: expected a non-negative integer, got -1");
    CHECK(error(R"({"metrics": {"lat_p99_us": 1}, "latency_histogram_ns": [[1, 1]]})").find("the host computes it") != std::string::npos);
    CHECK(error(R"({"metric": {}})").find("unknown key 'metric'") == 0);
    CHECK(error("[]") == "expected a JSON object, got []");
}

TEST_CASE("io limits: the kernel's v1 and v2 texts, and drift") {
    CHECK(box::v1_throttle_value("8:0 100\n254:0 3000\n", "254:0") == 3000u);
    CHECK_FALSE(box::v1_throttle_value("8:0 100\n", "254:0").has_value());
    auto v2 = box::v2_io_max("8:0 rbps=max wbps=max riops=5 wiops=max\n254:0 rbps=41943040 wbps=max riops=3000 wiops=max\n", "254:0");
    CHECK(v2.read_iops == 3000u);
    CHECK(v2.read_bps == 41943040u);
    CHECK_FALSE(v2.write_iops.has_value());  // "max" is no limit
    box::IoLimit plan{"/var/tmp", "254:0", 3000, std::nullopt, 41943040, std::nullopt};
    CHECK(box::io_drift(plan, v2).empty());
    v2.read_iops = 100;
    CHECK(box::io_drift(plan, v2) == "io 254:0: riops planned 3000, effective 100");
    CHECK(box::io_drift(plan, std::nullopt).find("effective unknown") != std::string::npos);
}

TEST_CASE("io limits: a directory on tmpfs has no disk to throttle, /var/tmp has one") {
    try {
        box::whole_disk_of("/dev/shm");
        FAIL("expected a BoxError");
    } catch (const box::BoxError& e) {
        CHECK(std::string(e.what()).find("io limit: /dev/shm is on device 0:") == 0);
    }
    auto disk = box::whole_disk_of("/var/tmp");
    CHECK(disk.numbers.find(':') != std::string::npos);
    CHECK(disk.numbers.substr(0, 2) != "0:");
}

TEST_CASE("process placement: /proc/PID/cgroup lines map to the mounted hierarchies") {
    box::CgroupLayout v1;
    v1.backend = box::CgroupVersion::v1;
    v1.v1 = {{"cpu", "/sys/fs/cgroup/cpu"}, {"cpuacct", "/sys/fs/cgroup/cpu"}, {"blkio", "/sys/fs/cgroup/blkio"}};
    auto dirs = box::groups_of("5:cpu,cpuacct:/user/a\n3:blkio:/\n1:name=systemd:/x\n0::/y\n", v1);
    REQUIRE(dirs.size() == 2);
    CHECK(dirs[0] == "/sys/fs/cgroup/cpu/user/a");
    CHECK(dirs[1] == "/sys/fs/cgroup/blkio");
    box::CgroupLayout v2;
    v2.backend = box::CgroupVersion::v2;
    v2.v2_root = "/sys/fs/cgroup";
    dirs = box::groups_of("0::/system.slice/x.service\n", v2);
    REQUIRE(dirs.size() == 1);
    CHECK(dirs[0] == "/sys/fs/cgroup/system.slice/x.service");
}

TEST_CASE("host facts: hypervisor signatures as systemd-detect-virt names them, the facts a run records") {
    CHECK(detect::hypervisor_from_signature("KVMKVMKVM") == "kvm");
    CHECK(detect::hypervisor_from_signature("VMwareVMware") == "vmware");
    CHECK(detect::hypervisor_from_signature("Microsoft Hv") == "microsoft (hyperv)");
    CHECK(detect::hypervisor_from_signature("odd") == "unknown (CPUID signature \"odd\")");
    auto f = detect::collect_host_facts();
    for (const char* key : {"cpu_model", "cpus_online", "hypervisor", "ram_mib", "disks", "os", "kernel", "medium_type",
                            "cpu_governor", "cpu_boost", "smt", "aslr", "transparent_hugepages"})
        CHECK_MESSAGE(f.contains(key), key);
    CHECK(f.at("ram_mib").to_number<double>() > 0);
}

TEST_CASE("scenario: steps for one plugin, box io, checks, wide tables with ratio_of") {
    const std::string ok = battery("", R"(, "box": {"io": {"path": "/var/tmp", "read_iops": 3000, "write_mib_s": 40}},
      "tables": [{"title": "t", "layout": "wide", "rows": [{"label": "r", "metric": "rr.iops", "ratio_of": "rw.iops"}]}],
      "checks": [{"check": "plateau_equal", "metrics": ["rr.iops", "rw.iops"]}, {"check": "anomalies"}])");
    auto s = scenario::parse_scenario_text(ok, "b.json");
    CHECK(s.phases[0].steps[0].plugin == "disk");
    REQUIRE(s.box.io.has_value());
    CHECK(s.box.io->read_iops == 3000u);
    CHECK(s.box.io->write_bps == 40u * 1048576u);
    CHECK(s.tables[0].layout == "wide");
    CHECK(s.tables[0].rows[0].ratio_of == "rw.iops");
    REQUIRE(s.checks.size() == 2);
    CHECK(s.checks[0].at("within_pct").as_double() == 0.01);  // the default, filled in
    CHECK(s.checks[1].at("above").as_double() == 1.3);

    CHECK(parse_error(battery(R"(, {"step": "run_probe", "plugin": "fio", "job": "x"})", "")) ==
          R"(b.json: $.phases[0].steps[3].plugin: expected the label of a plugin of this run ("disk", "sysprobe"), got "fio")");
    CHECK(parse_error(battery("", R"(, "checks": [{"check": "cache", "metric": "rr.iops", "control": "nope.iops"}])")) ==
          R"(b.json: $.checks[0].control: expected a metric produced by a step (no step is named "nope"; steps with metrics: rr, rw, cpu), got "nope.iops")");
    CHECK(parse_error(battery("", R"(, "checks": [{"check": "limiter"}])")) ==
          R"(b.json: $.checks[0].check: expected one of cache, plateau_spread, plateau_equal, write_back, anomalies, got "limiter")");
    CHECK(parse_error(battery("", R"(, "checks": [{"check": "plateau_equal", "metrics": ["rr.iops"]}])")) ==
          R"(b.json: $.checks[0].metrics: expected an array of 2 metric names, got an array)");
    CHECK(parse_error(battery("", R"(, "box": {"io": {"path": "/var/tmp"}})")) ==
          "b.json: $.box.io: expected at least one of read_iops, write_iops, read_mib_s, write_mib_s, got nothing");
    CHECK(parse_error(battery("", R"(, "tables": [{"title": "t", "layout": "tall", "rows": [{"label": "r", "metric": "rr.iops"}]}])")) ==
          R"(b.json: $.tables[0].layout: expected "rows" or "wide", got "tall")");
}
