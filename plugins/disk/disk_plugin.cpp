// disk: a stand.probe/1 plugin with its own I/O engine (io_uring, or libaio
// where io_uring is refused; O_DIRECT, time-based), in the manner of fio and CrystalDiskMark. Jobs are the four
// CrystalDiskMark profiles, read and write each; params override block size,
// queue depth and threads. prepare() refuses RAM-backed test directories and
// writes the test file in full once per (directory, size), shared by all jobs
// (test_files.hpp); run() measures; the last cleanup() removes the file.
#include <stand/stand.hpp>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <stand/kits/probe/cdm_jobs.hpp>
#include <stand/kits/probe/disk_params.hpp>
#include "disk_engine.hpp"
#include "test_files.hpp"

namespace {

using stand::cpp::Error;
namespace json = boost::json;

using JobDef = stand_probe_kit::CdmJob;
using stand_probe_kit::kMiB;
constexpr const auto& kJobs = stand_probe_kit::kCdmJobs;

constexpr const char* kMediumNote =
    "the medium type (NVMe, SSD, HDD) cannot be verified from inside a VM: a virtual disk hides it, and the "
    "rotational flag is unreliable";

// A job's params: the disk probes' shared keys, and the disk probe's own.
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

const JobDef& find_job(const std::string& id) {
    if (const auto* j = stand_probe_kit::find_cdm_job(id)) return *j;
    std::string known;
    for (const auto& j : kJobs) known += (known.empty() ? "" : ", ") + std::string(j.id);
    throw Error(STAND_E_NOT_FOUND, "disk: no job '" + id + "' (jobs: " + known + ")");
}

struct Prepared {
    stand_disk::EngineSpec spec;
    stand_disk::MountInfo mount;
    std::string dir;
    bool file_given = false;  // params.file: the caller's file, never written in prepare() nor removed
    bool file_reused = false;  // not written by this prepare()
    std::string engine_note;  // why the engine differs from params.engine
    double prepare_s = 0;
};

// A job's params as read and checked: the shared disk params, the caller's file, and the engine asked for.
struct JobParams {
    stand_probe_kit::DiskParams disk;
    std::string file;  // params.file; "" when the probe writes the test file
    bool direct = true;
    stand_disk::EngineKind engine = stand_disk::EngineKind::io_uring;
};

JobParams read_job_params(const JobDef& job, const json::object& given_params) {
    const json::object params = with_ram_size(given_params);
    auto p = params_spec().read(params, "disk: params");
    JobParams j;
    j.disk = stand_probe_kit::read_disk_params(p, job);
    j.file = p.string("file");
    if (!j.file.empty() && p.given("dir"))
        throw Error(STAND_E_INVALID_ARGUMENT, "disk: params.file and params.dir exclude each other (the file's directory is the test directory)");
    j.direct = p.boolean("direct");
    p.finish();
    j.engine = *stand_disk::engine_from_name(j.disk.engine);  // one of the declared choices
    const auto& d = j.disk;
    if (d.block_size % 512 != 0)
        throw Error(STAND_E_INVALID_ARGUMENT,
                    "disk: params.block_size: " + std::to_string(d.block_size) + " is not a multiple of 512 (O_DIRECT)");
    const std::uint64_t size = static_cast<std::uint64_t>(d.size_mib) * kMiB;
    if (size < static_cast<std::uint64_t>(d.block_size) * static_cast<std::uint64_t>(d.jobs))
        throw Error(STAND_E_INVALID_ARGUMENT, "disk: params.size_mib: " + std::to_string(d.size_mib) +
                                                  " MiB holds fewer than one block of " +
                                                  std::to_string(d.block_size) + " bytes per thread");
    return j;
}

// The test directory of params.file: the file's own.
std::string directory_of(const std::string& file) {
    const auto slash = file.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
}

// The test directory's mount; a directory in RAM (tmpfs, ramfs) is refused before any I/O.
stand_disk::MountInfo test_mount(const std::string& dir) {
    stand_disk::MountInfo mount;
    try {
        mount = stand_disk::mount_of(dir);
    } catch (const std::exception& e) {
        throw Error(STAND_E_INVALID_ARGUMENT, std::string("disk: params.dir: ") + e.what());
    }
    if (mount.ram_backed)
        throw Error(STAND_E_INVALID_ARGUMENT,
                    "disk: refusing test directory " + dir + ": it is on " + mount.fs_type + " (mount " +
                        (mount.mount_point.empty() ? std::string("unknown") : mount.mount_point) +
                        "), which is RAM, not a disk; choose a directory on the disk under test");
    return mount;
}

void check_free_space(const Prepared& prep, std::uint64_t size_mib) {
    if (prep.mount.free_bytes < size_mib * kMiB)
        throw Error(STAND_E_IO, "disk: " + prep.dir + " has " + std::to_string(prep.mount.free_bytes / kMiB) +
                                    " MiB free, the test file needs " + std::to_string(size_mib) + " MiB");
}

stand_disk::EngineSpec engine_spec(const JobDef& job, const JobParams& params, const std::string& path,
                                   stand_disk::EngineKind engine) {
    const auto& d = params.disk;
    stand_disk::EngineSpec spec;
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

// params.file must be written in full: the probe never writes the caller's file.
void check_given_file(const stand_disk::EngineSpec& spec) {
    try {
        stand_disk::check_fully_written(spec.path, spec.file_size);
    } catch (const std::exception& e) {
        throw Error(STAND_E_INVALID_ARGUMENT, std::string("disk: params.file: ") + e.what());
    }
}

class Disk : public stand::cpp::Instance, public stand::cpp::Probe {
public:
    Disk(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigSpec().read(config).finish();  // no config keys
    }

    // files_ removes the test files it wrote.
    ~Disk() override = default;

    json::array list_jobs() override {
        json::array jobs;
        const json::value schema = params_spec().schema();
        for (const auto& j : kJobs) {
            std::string desc = std::string(j.label) + ": " + (j.random ? "random " : "sequential ") +
                               (j.write ? "writes" : "reads") + " of " +
                               (j.block_size == kMiB ? std::string("1 MiB") : std::to_string(j.block_size / 1024) + " KiB") +
                               ", queue depth " + std::to_string(j.queue_depth) +
                               ", 1 thread, O_DIRECT through io_uring (libaio where io_uring is refused), time-based";
            jobs.push_back(json::object{{"id", j.id}, {"description", desc}, {"params_schema", schema}});
        }
        return jobs;
    }

    void prepare(const std::string& job_id, const json::object& given_params) override {
        const JobDef& job = find_job(job_id);
        const JobParams params = read_job_params(job, given_params);
        Prepared prep;
        prep.file_given = !params.file.empty();
        prep.dir = prep.file_given ? directory_of(params.file) : params.disk.dir;
        const stand_disk::EngineChoice engine = engine_for(job_id, params.engine);
        prep.engine_note = engine.note;
        prep.mount = test_mount(prep.dir);
        const auto size_mib = static_cast<std::uint64_t>(params.disk.size_mib);
        const std::string shared_path = stand_disk::TestFiles::path_for(prep.dir, size_mib);
        if (!prep.file_given && !files_.holds(shared_path)) check_free_space(prep, size_mib);
        prep.spec = engine_spec(job, params, prep.file_given ? params.file : shared_path, engine.kind);
        if (prep.file_given) {
            check_given_file(prep.spec);
            prep.file_reused = true;
        } else {
            write_test_file(job_id, prep, size_mib);
        }
        keep(job_id, std::move(prep));
    }

    json::object run(const std::string& job_id) override {
        find_job(job_id);
        auto it = prepared_.find(job_id);
        if (it == prepared_.end()) throw Error(STAND_E_BAD_STATE, "disk: job '" + job_id + "' was not prepared");
        const Prepared& prep = it->second;
        const auto& spec = prep.spec;
        bool was_cancelled = false;
        stand_disk::EngineResult r;
        try {
            r = stand_disk::run_engine(spec, [this] { return cancelled(); },
                                       [this](double f) { report(f, "measuring"); }, was_cancelled);
        } catch (const std::exception& e) {
            throw Error(STAND_E_IO, std::string("disk: ") + job_id + ": " + e.what());
        }
        if (was_cancelled) throw Error(STAND_E_CANCELLED, "disk: " + job_id + " cancelled");
        if (r.ios == 0 || r.seconds <= 0) throw Error(STAND_E_IO, "disk: " + job_id + ": no I/O completed");

        const double bytes_s = static_cast<double>(r.bytes) / r.seconds;
        const double us = 1000.0;
        const auto& h = r.latency;
        json::object metrics{
            {"mb_s", bytes_s / 1e6},
            {"mib_s", bytes_s / static_cast<double>(kMiB)},
            {"iops", static_cast<double>(r.ios) / r.seconds},
            {"lat_mean_us", h.mean() / us},
            {"lat_max_us", static_cast<double>(h.max()) / us},
            {"cpu_s", r.cpu_s},
            {"cpu_pct", 100.0 * r.cpu_s / r.seconds},
            {"cpu_us_per_io", r.cpu_s * 1e6 / static_cast<double>(r.ios)},
            {"ios", r.ios},
            {"seconds", r.seconds},
            {"block_size", spec.block_size},
            {"queue_depth", spec.queue_depth},
            {"jobs", spec.jobs},
            {"size_mib", spec.file_size / kMiB},
            {"prepare_s", prep.prepare_s},
        };
        // The host computes the percentiles from the histogram.
        json::array histogram;
        for (const auto& [value_ns, count] : h.buckets()) histogram.push_back(json::array{value_ns, count});
        json::object facts{{"filesystem", prep.mount.fs_type},
                           {"mount", prep.mount.mount_point},
                           {"device", prep.mount.source},
                           {"dir", prep.dir},
                           {"file", spec.path},
                           {"file_given", prep.file_given},
                           {"file_reused", prep.file_reused},
                           {"engine", stand_disk::engine_name(spec.engine)},
                           {"direct", spec.direct},
                           {"fixed_buffers", r.fixed_buffers},
                           {"pattern", std::string(spec.random ? "random" : "sequential") + (spec.write ? " write" : " read")}};
        json::array notes{kMediumNote};
        // A thread that is busy most of the run bounds the IOPS by its own
        // CPU per I/O: another tool (fio) with more work per I/O reads lower.
        const double busy_pct = 100.0 * r.cpu_s / (r.seconds * static_cast<double>(spec.jobs));
        if (busy_pct > 70.0) {
            char text[320];
            std::snprintf(text, sizeof text,
                          "%s: the I/O thread was busy %.0f %% of the run (%.2f us CPU per I/O): the IOPS are bounded by "
                          "the submitting CPU as much as by the disk, so compare tools on CPU per I/O too",
                          job_id.c_str(), busy_pct, r.cpu_s * 1e6 / static_cast<double>(r.ios));
            notes.push_back(json::value(text));
        }
        if (!spec.direct)
            notes.push_back(json::value("direct: false: this job went through the page cache; its numbers are the cache's, not the disk's"));
        if (!prep.engine_note.empty()) notes.push_back(json::value(prep.engine_note));
        return {{"metrics", std::move(metrics)},
                {"latency_histogram_ns", std::move(histogram)},
                {"facts", std::move(facts)},
                {"notes", std::move(notes)}};
    }

    // The job is forgotten, but its shared test file stays until the
    // instance ends: the host cleans up after every step, and rewriting a
    // 1 GiB file (or a control file larger than RAM) for each of the next
    // jobs would cost more than measuring them.
    stand_result cleanup(const std::string& job_id) override {
        find_job(job_id);
        auto it = prepared_.find(job_id);
        if (it == prepared_.end()) return STAND_OK_NOTHING_TO_DO;
        prepared_.erase(it);
        return STAND_OK;
    }

private:
    // The engine the job asked for, or the one that replaces it here (said once, as a warning).
    stand_disk::EngineChoice engine_for(const std::string& job_id, stand_disk::EngineKind requested) const {
        stand_disk::EngineChoice engine;
        try {
            const bool wants_uring = requested == stand_disk::EngineKind::io_uring;
            engine = stand_disk::choose_engine(requested, wants_uring ? stand_disk::uring_setup_errno() : 0);
        } catch (const std::exception& e) {
            throw Error(STAND_E_IO, std::string("disk: ") + job_id + ": params.engine: " + e.what());
        }
        if (!engine.note.empty()) host_.warn("disk: " + job_id + ": " + engine.note);
        return engine;
    }

    // Writes the shared test file unless this instance holds it already; it is shared by the jobs.
    void write_test_file(const std::string& job_id, Prepared& prep, std::uint64_t size_mib) {
        const std::string& path = prep.spec.path;
        if (!files_.holds(path))
            host_.info("disk: writing the " + std::to_string(size_mib) + " MiB test file " + path + " (" +
                       prep.mount.fs_type + " on " + prep.mount.source + "), shared by the jobs of this instance");
        std::optional<stand_disk::TestFiles::Use> use;
        try {
            use = files_.acquire(prep.dir, size_mib, [this] { return cancelled(); },
                                 [this](double f) { report(f, "writing the test file"); });
        } catch (const std::exception& e) {
            throw Error(STAND_E_IO, "disk: " + job_id + ": preparing the test file: " + e.what());
        }
        if (!use) throw Error(STAND_E_CANCELLED, "disk: " + job_id + ": cancelled while writing the test file " + path);
        prep.file_reused = use->reused;
        prep.prepare_s = use->write_s;
    }

    // The job's earlier preparation goes only now, so that its file is reused, not rewritten.
    void keep(const std::string& job_id, Prepared&& prep) {
        if (auto it = prepared_.find(job_id); it != prepared_.end()) {
            release(it->second);
            prepared_.erase(it);
        }
        prepared_[job_id] = std::move(prep);
    }

    // False when the last user removed the file and that failed (errno set).
    bool release(const Prepared& prep) { return prep.file_given || files_.release(prep.spec.path); }

    bool cancelled() const { return host_.cancelled(); }
    void report(double fraction, const char* message) const { host_.report_progress(fraction, message); }

    stand::cpp::Host host_;
    stand_disk::TestFiles files_;  // declared before prepared_: outlives the jobs using its files
    std::map<std::string, Prepared> prepared_;
};

}  // namespace

STAND_CPP_PLUGIN(Disk, "disk", "Disk probe", "0.1.0",
                 "Self-timed disk probe: io_uring (libaio fallback) with O_DIRECT, time-based, CrystalDiskMark profiles "
                 "(SEQ1M Q8T1/Q1T1, RND4K Q32T1/Q1T1, read and write); MB/s, MiB/s, IOPS, a latency "
                 "histogram and its own CPU.",
                 stand::cpp::ConfigSpec())
