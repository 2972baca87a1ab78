// disk probe: a job's params (job_params.hpp).
#include "job_params.hpp"

#include <stand/cpp/error.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>

namespace stand_disk {

using stand::cpp::Error;
using stand_probe_kit::kMiB;
namespace json = boost::json;

const stand::cpp::ConfigSpec& params_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_probe_kit::declare_disk_params(s);
        s.string("file",
                 "an existing, fully written file to measure instead of writing one (the same file fio reads); never "
                 "removed; excludes dir");
        s.key("size_mib")
            .or_word("ram")
            .describe("test file size; \"ram\": the larger of 6 GiB and 1.5 x RAM, a control file no guest cache holds");
        s.boolean("direct", "O_DIRECT; false goes through the page cache, only to show what a cache does to the numbers")
            .by_default(true);
        s.key("jobs").describe("I/O threads, each with its own ring");
        s.key("engine").describe("io_uring falls back to libaio where the kernel refuses it");
        return s;
    }();
    return spec;
}

namespace {

// params with "size_mib": "ram" replaced by max(6 GiB, 1.5 x MemTotal) in MiB.
json::object with_ram_size(const json::object& params) {
    json::object out = params;
    auto* v = out.if_contains("size_mib");
    if (v == nullptr || !v->is_string()) return out;
    if (v->get_string() != "ram")
        throw Error(STAND_E_INVALID_ARGUMENT, "disk: params.size_mib: expected an integer or \"ram\", got \"" +
                                                  std::string(v->get_string()) + "\"");
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    while (meminfo >> key && key != "MemTotal:") meminfo.ignore(256, '\n');
    if (!(meminfo >> kib) || kib == 0)
        throw Error(STAND_E_IO, "disk: params.size_mib \"ram\": cannot read MemTotal from /proc/meminfo");
    const std::uint64_t ram_mib = kib / 1024;
    *v = std::max<std::uint64_t>(6144, (ram_mib * 3 + 1) / 2);
    return out;
}

}  // namespace

JobParams read_job_params(const stand_probe_kit::CdmJob& job, const json::object& given_params) {
    const json::object params = with_ram_size(given_params);
    auto p = params_spec().read(params, "disk: params");
    JobParams j;
    j.disk = stand_probe_kit::read_disk_params(p, job);
    j.file = p.string("file");
    if (!j.file.empty() && p.given("dir"))
        throw Error(STAND_E_INVALID_ARGUMENT, "disk: params.file and params.dir exclude each other (the file's directory is the test directory)");
    j.direct = p.boolean("direct");
    p.finish();
    j.engine = *engine_from_name(j.disk.engine);  // one of the declared choices
    const auto& d = j.disk;
    stand_probe_kit::check_direct_block_size("disk", d);
    const std::uint64_t size = static_cast<std::uint64_t>(d.size_mib) * kMiB;
    if (size < static_cast<std::uint64_t>(d.block_size) * static_cast<std::uint64_t>(d.jobs))
        throw Error(STAND_E_INVALID_ARGUMENT, "disk: params.size_mib: " + std::to_string(d.size_mib) +
                                                  " MiB holds fewer than one block of " +
                                                  std::to_string(d.block_size) + " bytes per thread");
    return j;
}

std::string test_dir(const JobParams& params) {
    if (params.file.empty()) return params.disk.dir;
    const auto slash = params.file.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : params.file.substr(0, slash);
}

EngineSpec engine_spec(const stand_probe_kit::CdmJob& job, const JobParams& params, const std::string& path,
                       EngineKind engine) {
    const auto& d = params.disk;
    EngineSpec spec;
    spec.path = path;
    spec.file_size = static_cast<std::uint64_t>(d.size_mib) * kMiB;
    spec.block_size = static_cast<std::uint32_t>(d.block_size);
    spec.queue_depth = static_cast<std::uint32_t>(d.queue_depth);
    spec.jobs = static_cast<std::uint32_t>(d.jobs);
    spec.random = job.random;
    spec.write = job.write;
    spec.engine = engine;
    spec.direct = params.direct;
    spec.duration_ns = static_cast<std::uint64_t>(d.duration_s) * 1'000'000'000ull;
    return spec;
}

}  // namespace stand_disk
