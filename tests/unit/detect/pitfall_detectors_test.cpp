// Seed 001's pitfalls #8 (a Go runtime sized by the host's CPUs) and #12
// (a probe in step with the CFS period), seed 002's #10 (defaults that
// differ): the Go build-info reader on synthesized ELF images of both
// formats and on the Go test server the build made, the GOMAXPROCS
// derivation (old Go, GODEBUG, cgroup namespace), and the three checks on
// hand-made inputs. The scenario tests (tests/scenario-runs) run them on
// real boxes.
#include "detect/box_cpu.hpp"
#include "detect/defaults_differ.hpp"
#include "detect/go_buildinfo.hpp"
#include "detect/go_runtime.hpp"
#include "detect/probe_aliasing.hpp"

#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>

using namespace stand::detect;
namespace json = boost::json;

namespace {

// An ELF image with one PT_LOAD segment (read+write) holding `blob` at file
// offset 0x100, and a .go.buildinfo section over it when `section`.
struct ElfImage {
    bool wide = true, big = false, section = true;
    std::uint64_t base = 0x10000;  // vaddr of file offset 0
    static constexpr std::size_t kBlobAt = 0x100;

    std::uint64_t vaddr(std::size_t offset) const { return base + offset; }

    void put(std::string& b, std::size_t at, std::uint64_t v, std::size_t width) const {
        if (b.size() < at + width) b.resize(at + width, '\0');
        for (std::size_t i = 0; i < width; ++i)
            b[at + (big ? width - 1 - i : i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    }

    std::string build(const std::string& blob) const {
        std::string img(kBlobAt, '\0');
        img += blob;
        while (img.size() % 8) img += '\0';
        const std::size_t names_at = img.size();
        const std::string names = std::string("\0.go.buildinfo\0.shstrtab\0", 25);
        img += names;
        while (img.size() % 8) img += '\0';
        const std::size_t shoff = img.size();
        const std::size_t shentsize = wide ? 64 : 40, phentsize = wide ? 56 : 32;
        img.resize(shoff + 3 * shentsize, '\0');
        auto section_header = [&](std::size_t i, std::uint32_t name, std::uint64_t addr, std::uint64_t off,
                                  std::uint64_t size) {
            const std::size_t s = shoff + i * shentsize;
            put(img, s, name, 4);
            put(img, s + 4, 1, 4);  // SHT_PROGBITS
            put(img, s + (wide ? 16 : 12), addr, wide ? 8 : 4);
            put(img, s + (wide ? 24 : 16), off, wide ? 8 : 4);
            put(img, s + (wide ? 32 : 20), size, wide ? 8 : 4);
        };
        if (section) section_header(1, 1, vaddr(kBlobAt), kBlobAt, blob.size());
        section_header(2, 15, 0, names_at, names.size());
        const std::size_t phoff = wide ? 64 : 52;
        img.replace(0, 4, "\x7f" "ELF");
        img[4] = wide ? 2 : 1;
        img[5] = big ? 2 : 1;
        img[6] = 1;
        put(img, wide ? 0x20 : 0x1C, phoff, wide ? 8 : 4);
        put(img, wide ? 0x28 : 0x20, shoff, wide ? 8 : 4);
        put(img, wide ? 0x36 : 0x2A, phentsize, 2);
        put(img, wide ? 0x38 : 0x2C, 1, 2);
        put(img, wide ? 0x3A : 0x2E, shentsize, 2);
        put(img, wide ? 0x3C : 0x30, 3, 2);
        put(img, wide ? 0x3E : 0x32, 2, 2);
        put(img, phoff, 1, 4);  // PT_LOAD
        put(img, phoff + (wide ? 4 : 24), 6, 4);  // PF_R | PF_W
        put(img, phoff + (wide ? 8 : 4), 0, wide ? 8 : 4);
        put(img, phoff + (wide ? 16 : 8), base, wide ? 8 : 4);
        put(img, phoff + (wide ? 32 : 16), img.size(), wide ? 8 : 4);
        put(img, phoff + (wide ? 40 : 20), img.size(), wide ? 8 : 4);
        return img;
    }
};

const std::string kSentinel(16, '\x5a');
std::string framed(const std::string& modinfo) { return kSentinel + modinfo + kSentinel; }

std::string uvarint(std::uint64_t v) {
    std::string out;
    do {
        out += static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v != 0);
    return out;
}

// Go >= 1.18: the header, then the version and module info inline.
std::string inline_blob(const std::string& version, const std::string& modinfo) {
    std::string h = "\xff Go buildinf:";
    h += '\x08';
    h += '\x02';
    h.resize(32, '\0');
    return h + uvarint(version.size()) + version + uvarint(modinfo.size()) + modinfo;
}

// Before 1.18: pointers in the header to Go string headers {data, len}.
std::string pointer_blob(const ElfImage& e, const std::string& version, const std::string& modinfo) {
    const std::size_t ptr = e.wide ? 8 : 4;
    std::string b = "\xff Go buildinf:";
    b += static_cast<char>(ptr);
    b += static_cast<char>(e.big ? 1 : 0);
    b.resize(32, '\0');
    const std::size_t strings = 32, data = strings + 4 * ptr;  // two string headers, then the bytes
    e.put(b, 16, e.vaddr(ElfImage::kBlobAt + strings), ptr);
    e.put(b, 16 + ptr, e.vaddr(ElfImage::kBlobAt + strings + 2 * ptr), ptr);
    e.put(b, strings, e.vaddr(ElfImage::kBlobAt + data), ptr);
    e.put(b, strings + ptr, version.size(), ptr);
    e.put(b, strings + 2 * ptr, e.vaddr(ElfImage::kBlobAt + data + version.size()), ptr);
    e.put(b, strings + 3 * ptr, modinfo.size(), ptr);
    b.resize(data, '\0');
    return b + version + modinfo;
}

const std::string kModinfo =
    "path\texample.com/server\nmod\texample.com/server\t(devel)\t\n"
    "dep\tgo.uber.org/automaxprocs\tv1.6.0\th1:abc=\n"
    "build\t-compiler=gc\nbuild\tDefaultGODEBUG=asynctimerchan=1,containermaxprocs=0\n";

GoProcess go_process(const std::string& version, unsigned cpus) {
    GoProcess p;
    p.pid = 4242;
    p.process = "server";
    p.go_version = version;
    p.affinity_cpus = cpus;
    p.period_us = 100000;
    return p;
}

}  // namespace

TEST_CASE("gomaxprocs: the build info of Go >= 1.18 (inline, little-endian ELF64, in its section)") {
    ElfImage e;
    auto info = parse_go_build_info(e.build(inline_blob("go1.26.8", framed(kModinfo))));
    REQUIRE(info);
    CHECK(info->go_version == "go1.26.8");
    CHECK(info->modinfo == kModinfo);
    CHECK(default_godebug(info->modinfo) == "asynctimerchan=1,containermaxprocs=0");
    CHECK(has_dependency(info->modinfo, "go.uber.org/automaxprocs"));
    CHECK_FALSE(has_dependency(info->modinfo, "go.uber.org/zap"));
}

TEST_CASE("gomaxprocs: the build info before Go 1.18 (pointers, big-endian ELF32, found in the data segment)") {
    ElfImage e;
    e.wide = false;
    e.big = true;
    e.section = false;  // no .go.buildinfo section: the first writable segment is searched
    auto info = parse_go_build_info(e.build(pointer_blob(e, "go1.17.13", framed("path\told/tool\n"))));
    REQUIRE(info);
    CHECK(info->go_version == "go1.17.13");
    CHECK(info->modinfo == "path\told/tool\n");
    CHECK(default_godebug(info->modinfo).empty());

    ElfImage le;  // and little-endian ELF64 pointers, without module info
    auto plain = parse_go_build_info(le.build(pointer_blob(le, "go1.16", "")));
    REQUIRE(plain);
    CHECK(plain->go_version == "go1.16");
    CHECK(plain->modinfo.empty());
}

TEST_CASE("gomaxprocs: no build info in a non-Go ELF, a cut blob or a non-ELF file") {
    ElfImage e;
    CHECK_FALSE(parse_go_build_info(e.build(std::string(64, 'x'))));
    std::string cut = inline_blob("", "").substr(0, 32) + uvarint(1 << 20) + "go1.26.8";  // longer than the file
    CHECK_FALSE(parse_go_build_info(e.build(cut)));
    CHECK_FALSE(parse_go_build_info("#!/bin/sh\necho not an ELF\n"));
    CHECK_FALSE(read_go_build_info("/nonexistent/binary"));
    CHECK_FALSE(read_go_build_info(stand::test::stand_binary()));  // C++, not Go
}

TEST_CASE("gomaxprocs: the Go test server's build info (built by the test build with the machine's Go)") {
    const auto server = stand::test::build_dir() / "tests" / "hy2server";
    if (!std::filesystem::exists(server)) {
        MESSAGE("tests/hy2server was not built (no Go): skipped");
        return;
    }
    auto info = read_go_build_info(server);
    REQUIRE(info);
    CHECK(info->go_version.starts_with("go1."));
    CHECK(info->modinfo.starts_with("path\tstand/tests/hy2server\n"));
    CHECK(has_dependency(info->modinfo, "github.com/apernet/hysteria/core/v2"));
    auto release = go_release(info->go_version);
    REQUIRE(release);
    CHECK(release->minor >= 25);  // tests/hysteria2-server/go.mod says go 1.26.0
}

TEST_CASE("gomaxprocs: Go releases from version strings") {
    CHECK(go_release("go1.26.8")->minor == 26);
    CHECK(go_release("go1.25rc1")->minor == 25);
    CHECK(go_release("devel go1.27-abcdef Tue")->minor == 27);
    CHECK(go_release("go1.9")->minor == 9);
    CHECK_FALSE(go_release("gccgo"));
}

TEST_CASE("gomaxprocs: the size Go chooses") {
    SUBCASE("GOMAXPROCS in the environment wins over everything") {
        auto p = go_process("go1.26.8", 16);
        p.quota_us = 100000;
        p.gomaxprocs_env = "2";
        CHECK(derive_go_procs(p).size == 2);
        CHECK_FALSE(derive_go_procs(p).sized_by_limit);
        p.gomaxprocs_env = "2x";  // not a number: ignored, as Go's atoi32 does
        CHECK(derive_go_procs(p).size == 2);
        CHECK(derive_go_procs(p).sized_by_limit);
    }
    SUBCASE("Go >= 1.25 reads the quota: ceil, at least 2, at most the affinity CPUs") {
        auto p = go_process("go1.26.8", 16);
        p.quota_us = 250000;  // 2.5 vCPU
        CHECK(derive_go_procs(p).size == 3);
        p.quota_us = 50000;  // 0.5 vCPU
        CHECK(derive_go_procs(p).size == 2);
        p.affinity_cpus = 1;
        CHECK(derive_go_procs(p).size == 1);
        p.affinity_cpus = 16;
        p.quota_us.reset();  // no limit: the CPUs
        CHECK(derive_go_procs(p).size == 16);
    }
    SUBCASE("older Go ignores the quota") {
        auto p = go_process("go1.24.4", 16);
        p.quota_us = 200000;
        const auto procs = derive_go_procs(p);
        CHECK(procs.size == 16);
        CHECK_FALSE(procs.sized_by_limit);
        CHECK(procs.how.find("before 1.25") != std::string::npos);
    }
    SUBCASE("containermaxprocs=0 from the binary's defaults, and GODEBUG turning it back on") {
        auto p = go_process("go1.26.8", 16);
        p.quota_us = 200000;
        p.default_godebug = "containermaxprocs=0";  // a main module with go 1.24 or older
        CHECK(derive_go_procs(p).size == 16);
        p.godebug_env = "madvdontneed=1,containermaxprocs=1";
        CHECK(derive_go_procs(p).size == 2);
        p.default_godebug.clear();
        p.godebug_env = "containermaxprocs=0";
        CHECK(derive_go_procs(p).size == 16);
    }
    SUBCASE("go.uber.org/automaxprocs: floor of the quota, at least 1") {
        auto p = go_process("go1.22.1", 16);
        p.automaxprocs = true;
        p.quota_us = 250000;
        CHECK(derive_go_procs(p).size == 2);
        p.quota_us = 50000;
        CHECK(derive_go_procs(p).size == 1);
    }
}

TEST_CASE("gomaxprocs: the seed's case, older Go on 16 CPUs in a 2-vCPU box, fires with the throttling") {
    auto p = go_process("go1.22.12", 16);
    p.quota_us = 200000;
    const auto v = check_go_runtimes({p}, 2.0, Throttling{1200, 960, 38'400'000}, "node rep 1");
    REQUIRE(v.findings.size() == 1);
    CHECK(v.findings[0].id == "go-runtime-oversized");
    CHECK(v.findings[0].scope == "node rep 1");
    const auto& m = v.findings[0].message;
    CHECK(m.find("runs 16 Ps") != std::string::npos);
    CHECK(m.find("2.00-vCPU box") != std::string::npos);
    CHECK(m.find("throttled in 960 of 1200 CFS periods (80.0 %), 38.40 s") != std::string::npos);
    CHECK(m.find("Set GOMAXPROCS=2 for it, or build it with Go >= 1.25") != std::string::npos);
    CHECK(v.notes.empty());
}

TEST_CASE("gomaxprocs: a cgroup namespace hides the box's quota on a parent group") {
    // A container with its own cgroup namespace under the box (cgroup parent):
    // its own group has no quota, the box's 2 vCPU is on the parent.
    auto p = go_process("go1.26.8", 16);
    p.own_cgroup_namespace = true;
    const auto procs = derive_go_procs(p);
    CHECK(procs.size == 16);
    CHECK(procs.how.find("own cgroup namespace") != std::string::npos);
    const auto v = check_go_runtimes({p}, 2.0, std::nullopt, "panel rep 2");
    REQUIRE(v.findings.size() == 1);
    CHECK(v.findings[0].message.find("parent's quota is out of its sight") != std::string::npos);
    CHECK(v.findings[0].message.find("no throttling counters") != std::string::npos);

    p.own_cgroup_namespace = false;  // the same place without a namespace: Go reads only its own group
    CHECK(derive_go_procs(p).how.find("not a parent's quota") != std::string::npos);
    p.quota_us = 200000;  // a quota on its own group is seen through the namespace too
    p.own_cgroup_namespace = true;
    CHECK(derive_go_procs(p).size == 2);
    CHECK(check_go_runtimes({p}, 2.0, std::nullopt, "panel rep 2").findings.empty());
}

TEST_CASE("gomaxprocs: Go's own rounding above a 1-vCPU box is a note, an override above it a finding") {
    auto p = go_process("go1.26.8", 2);
    p.quota_us = 100000;
    const Throttling none{50, 0, 0};
    auto v = check_go_runtimes({p}, 1.0, none, "hy rep 1");
    CHECK(v.findings.empty());
    REQUIRE(v.notes.size() == 1);
    CHECK(v.notes[0].find("never below 2") != std::string::npos);
    p.gomaxprocs_env = "2";
    v = check_go_runtimes({p}, 1.0, none, "hy rep 1");
    REQUIRE(v.findings.size() == 1);
    CHECK(v.findings[0].message.find("GOMAXPROCS=2 in its environment") != std::string::npos);
    CHECK(v.findings[0].message.find("Set GOMAXPROCS=1 for it, or drop the override") != std::string::npos);
    CHECK(v.findings[0].message.find("throttled in 0 of 50") != std::string::npos);
    CHECK(check_go_runtimes({p}, std::nullopt, none, "hy rep 1").findings.empty());  // no limit, nothing oversized
    CHECK(check_go_runtimes({p}, 2.0, none, "hy rep 1").findings.empty());
}

TEST_CASE("gomaxprocs: the box's CPUs from its effective settings") {
    auto box = json::parse(R"({"cpu":{"quota_us":150000,"period_us":100000,"vcpu":1.5},
                               "cpuset":{"cpus_effective":"0-3"},"ancestor_limits":{}})");
    auto c = box_cpu_of(&box);
    CHECK(c.vcpu == doctest::Approx(1.5));
    CHECK(c.period_us == 100000);
    box = json::parse(R"({"cpu":{"quota_us":"max","period_us":100000,"vcpu":"max"},"cpuset":{"cpus_effective":"1"},
                          "ancestor_limits":{}})");
    CHECK(box_cpu_of(&box).vcpu == doctest::Approx(1.0));
    box = json::parse(R"({"cpu":{"vcpu":"max"},"cpuset":{},"ancestor_limits":{"vcpu":{"dir":"/x","value":0.5}}})");
    CHECK(box_cpu_of(&box).vcpu == doctest::Approx(0.5));
    CHECK_FALSE(box_cpu_of(nullptr).vcpu);
}

TEST_CASE("aliasing: a probe in step with the CFS period on a throttled box") {
    const StepThrottling throttled{100000, 40, 12, 600000};
    SUBCASE("100 ms fires, with the fix") {
        auto f = check_probe_aliasing({"the small request", 100, 40}, throttled, "p rep 1, step B1");
        REQUIRE(f);
        CHECK(f->id == "probe-aliasing");
        CHECK(f->message.find("every 100 ms") != std::string::npos);
        CHECK(f->message.find("12 of 40 periods") != std::string::npos);
        CHECK(f->message.find("e.g. 97 ms") != std::string::npos);
    }
    SUBCASE("97 ms drifts through the period and stays silent") {
        CHECK_FALSE(check_probe_aliasing({"the small request", 97, 40}, throttled, "s"));
        // ... unless the step was too short for the drift to sweep one period
        auto short_step = check_probe_aliasing({"the small request", 97, 20}, throttled, "s");
        REQUIRE(short_step);
        CHECK(short_step->message.find("moved 60.0 ms in all") != std::string::npos);
        CHECK(short_step->message.find("e.g. 95 ms") != std::string::npos);  // 5 ms a probe sweeps it in 20
    }
    SUBCASE("multiples of the period alias too; others do not") {
        CHECK(check_probe_aliasing({"each client's request", 500, 6}, throttled, "s"));
        CHECK(check_probe_aliasing({"the small request", 201, 30}, throttled, "s"));
        CHECK_FALSE(check_probe_aliasing({"the small request", 150, 30}, throttled, "s"));
        CHECK_FALSE(check_probe_aliasing({"the small request", 10, 300}, throttled, "s"));
    }
    SUBCASE("no throttling, or no period known: silent") {
        CHECK_FALSE(check_probe_aliasing({"the small request", 100, 40}, {100000, 40, 0, 0}, "s"));
        CHECK_FALSE(check_probe_aliasing({"the small request", 100, 40}, {0, 40, 12, 1}, "s"));
    }
}

namespace {

json::object rep_with(const std::string& plugin, const json::object& defaults, const json::array& set = {}) {
    return {{"plugin", plugin},
            {"status", "ok"},
            {"proxy_defaults", {{"cfg", defaults}}},
            {"proxy_defaults_set", {{"cfg", set}}}};
}

}  // namespace

TEST_CASE("defaults_differ: a setting the scenario left alone, reported differently") {
    const json::array plugins{json::object{{"id", "nginx"}, {"label", "nginx"}, {"config", json::object{}}},
                              json::object{{"id", "haproxy"}, {"label", "haproxy"}, {"config", json::object{}}}};
    SUBCASE("differing and unset: fires, naming the setting and the values") {
        auto f = check_defaults_differ({rep_with("nginx", {{"version", "1.22.1"}, {"workers", 1}}),
                                        rep_with("haproxy", {{"version", "2.6"}, {"workers", 2}})},
                                       plugins);
        REQUIRE(f.size() == 1);  // the versions differ too, but a version is no setting
        CHECK(f[0].id == "defaults-differ");
        CHECK(f[0].scope == "after configure step `cfg`");
        CHECK(f[0].message.find("workers differs (haproxy 2; nginx 1)") != std::string::npos);
        CHECK(f[0].message.find("ranks this setting") != std::string::npos);
    }
    SUBCASE("set by the scenario's knobs, by a plugin's config or by the system's own *_source: silent") {
        CHECK(check_defaults_differ({rep_with("nginx", {{"workers", 1}}, {"workers"}),
                                     rep_with("haproxy", {{"workers", 2}}, {"workers"})},
                                    plugins)
                  .empty());
        json::array configured = plugins;
        configured[1].as_object()["config"] = json::object{{"workers", 2}};
        CHECK(check_defaults_differ({rep_with("nginx", {{"workers", 1}}), rep_with("haproxy", {{"workers", 2}})},
                                    configured)
                  .empty());
        CHECK(check_defaults_differ({rep_with("nginx", {{"upstream_keepalive", true}, {"upstream_keepalive_source", "knob"}}),
                                     rep_with("haproxy", {{"upstream_keepalive", false}})},
                                    plugins)
                  .empty());
    }
    SUBCASE("the same difference over several configure steps is one finding; explanations are not compared") {
        json::object a{{"plugin", "nginx"}, {"status", "ok"},
                       {"proxy_defaults", {{"cfg1", {{"websocket", "not passed"}, {"upstream_pool", "none"}}},
                                           {"cfg2", {{"websocket", "not passed"}, {"workers_means", "processes"}}}}}};
        json::object b{{"plugin", "haproxy"}, {"status", "ok"},
                       {"proxy_defaults", {{"cfg1", {{"websocket", "passed"}, {"upstream_pool", "http-reuse safe"}}},
                                           {"cfg2", {{"websocket", "passed"}, {"workers_means", "threads"}}}}}};
        auto f = check_defaults_differ({a, b}, plugins);
        REQUIRE(f.size() == 1);
        CHECK(f[0].scope == "after configure steps `cfg1`, `cfg2`");
        CHECK(f[0].message.starts_with("websocket differs (haproxy passed; nginx not passed)"));
    }
    SUBCASE("equal values, one system, or a failed repetition: silent") {
        CHECK(check_defaults_differ({rep_with("nginx", {{"workers", 1}}), rep_with("haproxy", {{"workers", 1}})}, plugins)
                  .empty());
        CHECK(check_defaults_differ({rep_with("nginx", {{"workers", 1}})}, plugins).empty());
        auto failed = rep_with("haproxy", {{"workers", 2}});
        failed["status"] = "failed";
        CHECK(check_defaults_differ({rep_with("nginx", {{"workers", 1}}), failed}, plugins).empty());
    }
    SUBCASE("the defaults of the facts when no configure step reported any") {
        json::object a{{"plugin", "a"}, {"status", "ok"}, {"facts", {{"defaults", {{"pool", "off"}}}}}};
        json::object b{{"plugin", "b"}, {"status", "ok"}, {"facts", {{"defaults", {{"pool", "on"}}}}}};
        auto f = check_defaults_differ({a, b}, json::array{});
        REQUIRE(f.size() == 1);
        CHECK(f[0].scope == "the systems' facts");
        CHECK(f[0].message.find("pool differs (a off; b on)") != std::string::npos);
    }
}
