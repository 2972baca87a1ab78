// The governor, boost, SMT, ASLR and huge-page facts read from a fake sysfs
// and procfs tree, and the cpu-governor and cpu-boost findings they give.
#include "detect/host_tuning.hpp"
#include "detect/host_tuning_findings.hpp"
#include "text/temp_dir.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <tuple>
#include <utility>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::detect::check_host_tuning;
using stand::detect::check_run_host_tuning;
using stand::detect::read_host_tuning;

// A fake root: write("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave").
struct FakeRoot {
    stand::text::TempDir dir{"stand-host-tuning"};

    void write(const fs::path& relative, const std::string& text) const {
        fs::create_directories((dir.path() / relative).parent_path());
        std::ofstream(dir.path() / relative) << text << "\n";
    }
    void governors(std::initializer_list<const char*> per_cpu) const {
        int cpu = 0;
        for (const char* g : per_cpu)
            write("sys/devices/system/cpu/cpu" + std::to_string(cpu++) + "/cpufreq/scaling_governor", g);
    }
    json::object facts() const { return read_host_tuning(dir.path()); }
};

std::string fact(const json::object& facts, const char* key) { return std::string(facts.at(key).as_string()); }

const stand::detect::Finding* find(const std::vector<stand::detect::Finding>& findings, const std::string& id) {
    for (const auto& f : findings)
        if (f.id == id) return &f;
    return nullptr;
}

// Writes `files` (path, text) under a fake root; returns its cpu_boost fact
// and the cpu-boost finding's message ("" when it did not fire).
std::pair<std::string, std::string> boost_of(std::initializer_list<std::pair<const char*, const char*>> files) {
    FakeRoot root;
    for (const auto& [path, text] : files) root.write(path, text);
    const auto facts = root.facts();
    const auto findings = check_host_tuning(facts, "this machine");
    const auto* f = find(findings, "cpu-boost");
    return {fact(facts, "cpu_boost"), f == nullptr ? "" : f->message};
}

}  // namespace

TEST_CASE("host tuning: powersave on every CPU is a cpu-governor finding with the fix") {
    FakeRoot root;
    root.governors({"powersave", "powersave"});
    const auto facts = root.facts();
    CHECK(fact(facts, "cpu_governor") == "powersave");
    const auto findings = check_host_tuning(facts, "this machine");
    const auto* f = find(findings, "cpu-governor");
    REQUIRE(f != nullptr);
    CHECK(f->scope == "this machine");
    CHECK(f->message.find("CPU frequency governor powersave, not performance") != std::string::npos);
    CHECK(f->message.find("cpupower frequency-set -g performance") != std::string::npos);
    CHECK(f->message.find("/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor") != std::string::npos);
}

TEST_CASE("host tuning: performance on every CPU and boost off give no finding") {
    FakeRoot root;
    root.governors({"performance", "performance", "performance"});
    root.write("sys/devices/system/cpu/cpufreq/boost", "0");
    const auto facts = root.facts();
    CHECK(fact(facts, "cpu_governor") == "performance");
    CHECK(fact(facts, "cpu_boost") == "off (/sys/devices/system/cpu/cpufreq/boost reads 0)");
    CHECK(check_host_tuning(facts, "this machine").empty());
}

TEST_CASE("host tuning: mixed governors are listed per CPU, one that is not performance fires") {
    FakeRoot root;
    root.governors({"performance", "performance", "schedutil", "performance"});
    const auto facts = root.facts();
    CHECK(fact(facts, "cpu_governor") == "performance on cpu0-1,3; schedutil on cpu2");
    const auto findings = check_host_tuning(facts, "host a");
    const auto* f = find(findings, "cpu-governor");
    REQUIRE(f != nullptr);
    CHECK(f->message.find("CPU frequency governors performance on cpu0-1,3; schedutil on cpu2, not performance on every CPU:") != std::string::npos);
}

TEST_CASE("host tuning: boost on, from each of the three places, is a cpu-boost finding with its own fix") {
    auto [fact, message] = boost_of({{"sys/devices/system/cpu/cpufreq/boost", "1"}});  // acpi-cpufreq
    CHECK(fact == "on (/sys/devices/system/cpu/cpufreq/boost reads 1)");
    CHECK(message.find("CPU boost on (/sys/devices/system/cpu/cpufreq/boost reads 1)") != std::string::npos);
    CHECK(message.find("fix: echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost") != std::string::npos);

    std::tie(fact, message) = boost_of({{"sys/devices/system/cpu/intel_pstate/no_turbo", "0"}});  // inverted
    CHECK(fact == "on (/sys/devices/system/cpu/intel_pstate/no_turbo reads 0)");
    CHECK(message.find("fix: echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo") != std::string::npos);
    std::tie(fact, message) = boost_of({{"sys/devices/system/cpu/intel_pstate/no_turbo", "1"}});
    CHECK(fact == "off (/sys/devices/system/cpu/intel_pstate/no_turbo reads 1)");
    CHECK(message.empty());

    std::tie(fact, message) = boost_of({{"sys/devices/system/cpu/cpu0/cpufreq/boost", "1"},  // amd-pstate, per CPU
                                        {"sys/devices/system/cpu/cpu1/cpufreq/boost", "0"}});
    CHECK(fact == "partly on: cpu0 on; cpu1 off (/sys/devices/system/cpu/cpu*/cpufreq/boost)");
    CHECK(message.find("fix: echo 0 | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/boost") != std::string::npos);
}

TEST_CASE("host tuning: absent files are 'not visible', naming them, and fire nothing") {
    FakeRoot root;
    fs::create_directories(root.dir.path() / "sys/devices/system/cpu/cpu0");
    const auto facts = root.facts();
    CHECK(fact(facts, "cpu_governor") ==
          "not visible: no /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor (a VM's guest has none: its host sets "
          "the governor)");
    CHECK(fact(facts, "cpu_boost").starts_with("not visible: no /sys/devices/system/cpu/cpufreq/boost, "
                                               "/sys/devices/system/cpu/intel_pstate/no_turbo or "));
    CHECK(fact(facts, "smt") ==
          "not visible: no readable /sys/devices/system/cpu/smt/control or /sys/devices/system/cpu/smt/active");
    CHECK(fact(facts, "aslr") == "not visible: no /proc/sys/kernel/randomize_va_space");
    CHECK(fact(facts, "transparent_hugepages") == "not visible: no readable /sys/kernel/mm/transparent_hugepage/enabled");
    CHECK(check_host_tuning(facts, "this machine").empty());
}

TEST_CASE("host tuning: SMT, ASLR and transparent huge pages are facts, never findings") {
    FakeRoot root;
    root.write("sys/devices/system/cpu/smt/control", "on");
    root.write("sys/devices/system/cpu/smt/active", "1");
    root.write("proc/sys/kernel/randomize_va_space", "2");
    root.write("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never");
    root.write("sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never");
    const auto facts = root.facts();
    CHECK(fact(facts, "smt") == "on (smt/control on, smt/active 1)");
    CHECK(fact(facts, "aslr") == "2: full (stack, mmap base, VDSO, shared libraries and heap randomised)");
    CHECK(fact(facts, "transparent_hugepages") == "enabled always, defrag madvise");
    CHECK(check_host_tuning(facts, "this machine").empty());
    root.write("sys/devices/system/cpu/smt/control", "notsupported");
    root.write("sys/devices/system/cpu/smt/active", "0");
    root.write("proc/sys/kernel/randomize_va_space", "0");
    CHECK(fact(root.facts(), "smt") == "off (smt/control notsupported, smt/active 0)");
    CHECK(fact(root.facts(), "aslr") == "0: off");
}

TEST_CASE("host tuning: over a run, this machine's facts or each fleet host's") {
    json::object facts{{"cpu_governor", "powersave"}, {"cpu_boost", "on (/sys/devices/system/cpu/cpufreq/boost reads 1)"}};
    const json::object run{{"host_facts", facts}};
    const auto one = check_run_host_tuning(run);
    REQUIRE(one.size() == 2);
    CHECK(one[0].scope == "this machine");
    json::array hosts{{{"name", "edge1"}, {"host_facts", facts}}, {{"name", "edge2"}, {"host_facts", json::object{}}}};
    const auto fleet = check_run_host_tuning(json::object{{"fleet_hosts", hosts}});
    REQUIRE(fleet.size() == 2);
    CHECK(fleet[0].scope == "host edge1");
    CHECK(check_run_host_tuning(json::object{}).empty());
}
