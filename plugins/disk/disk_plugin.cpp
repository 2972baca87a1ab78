// disk: a stand.probe/1 plugin with its own I/O engine (io_uring, or libaio
// where io_uring is refused; O_DIRECT, time-based), in the manner of fio and
// CrystalDiskMark, on the probe kit's ProbePlugin. Jobs are the four
// CrystalDiskMark profiles, read and write each; params override block size,
// queue depth and threads (job_params.hpp). prepare_hook() refuses RAM-backed
// test directories and writes the test file in full once per (directory,
// size), shared by all jobs (test_files.hpp); run_hook() measures.
#include <stand/kits/probe/disk_metrics.hpp>
#include <stand/kits/probe/probe_plugin.hpp>
#include <stand/kits/probe/test_dir.hpp>
#include <stand/stand.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "disk_engine.hpp"
#include "job_params.hpp"
#include "test_files.hpp"

namespace {

using stand::cpp::Error;
using stand_probe_kit::CdmJob;
using stand_probe_kit::kMiB;
namespace json = boost::json;

constexpr const char* kMediumNote =
    "the medium type (NVMe, SSD, HDD) cannot be verified from inside a VM: a virtual disk hides it, and the "
    "rotational flag is unreliable";

// What prepare_hook() keeps of a job for run_hook().
struct Prepared {
    stand_disk::EngineSpec spec;
    stand_disk::MountInfo mount;
    std::string dir;
    bool file_given = false;   // params.file: the caller's file, never written in prepare() nor removed
    bool file_reused = false;  // not written by this prepare()
    std::string engine_note;   // why the engine differs from params.engine
    double prepare_s = 0;
};

// params.file must be written in full: the probe never writes the caller's file.
void check_given_file(const stand_disk::EngineSpec& spec) {
    try {
        stand_disk::check_fully_written(spec.path, spec.file_size);
    } catch (const std::exception& e) {
        throw Error(STAND_E_INVALID_ARGUMENT, std::string("disk: params.file: ") + e.what());
    }
}

// The run's caveats: the medium's, and what bounds or bends its numbers.
json::array notes_of(const std::string& job_id, const Prepared& prep, const stand_disk::EngineResult& r) {
    const auto& spec = prep.spec;
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
    return notes;
}

class Disk : public stand_probe_kit::ProbePlugin<CdmJob, Prepared> {
public:
    Disk(const stand::cpp::Host& host, const json::object& config)
        : ProbePlugin(host, "disk", stand_probe_kit::kCdmJobs) {
        stand::cpp::ConfigSpec().read(config).finish();  // no config keys
    }

private:
    stand_probe_kit::JobListing list_jobs_hook(const CdmJob& j) const override {
        return {std::string(j.label) + ": " + (j.random ? "random " : "sequential ") + (j.write ? "writes" : "reads") +
                    " of " + (j.block_size == kMiB ? std::string("1 MiB") : std::to_string(j.block_size / 1024) + " KiB") +
                    ", queue depth " + std::to_string(j.queue_depth) +
                    ", 1 thread, O_DIRECT through io_uring (libaio where io_uring is refused), time-based",
                stand_disk::params_spec().schema()};
    }

    Prepared prepare_hook(const CdmJob& job, const json::object& given_params) override {
        const stand_disk::JobParams params = stand_disk::read_job_params(job, given_params);
        Prepared prep;
        prep.file_given = !params.file.empty();
        prep.dir = stand_disk::test_dir(params);
        const stand_disk::EngineChoice engine = engine_for(job.id, params.engine);
        prep.engine_note = engine.note;
        prep.mount = stand_probe_kit::test_dir_mount("disk", prep.dir);
        const auto size_mib = static_cast<std::uint64_t>(params.disk.size_mib);
        const std::string shared_path = stand_disk::TestFiles::path_for(prep.dir, size_mib);
        if (!prep.file_given && !files_.holds(shared_path))
            stand_probe_kit::check_free_space("disk", prep.dir, prep.mount, size_mib);
        prep.spec = stand_disk::engine_spec(job, params, prep.file_given ? params.file : shared_path, engine.kind);
        if (prep.file_given) {
            check_given_file(prep.spec);
            prep.file_reused = true;
        } else {
            write_test_file(job.id, prep, size_mib);
        }
        // The job's earlier preparation goes only now, so that its file is reused, not rewritten.
        if (auto earlier = take_prepared(job.id); earlier && !earlier->file_given) files_.release(earlier->spec.path);
        return prep;
    }

    stand_probe_kit::ProbeResult run_hook(const CdmJob& job, const Prepared& prep) override {
        const std::string job_id = job.id;
        const auto& spec = prep.spec;
        bool was_cancelled = false;
        stand_disk::EngineResult r;
        try {
            r = stand_disk::run_engine(spec, [this] { return cancelled(); },
                                       [this](double f) { report_progress(f, "measuring"); }, was_cancelled);
        } catch (const std::exception& e) {
            throw Error(STAND_E_IO, "disk: " + job_id + ": " + e.what());
        }
        if (was_cancelled) throw Error(STAND_E_CANCELLED, "disk: " + job_id + " cancelled");
        if (r.ios == 0 || r.seconds <= 0) throw Error(STAND_E_IO, "disk: " + job_id + ": no I/O completed");

        auto m = stand_probe_kit::disk_metrics(r.bytes, r.ios, r.seconds, r.latency.mean(), r.cpu_s);
        m.lat_max_us = static_cast<double>(r.latency.max()) / 1000.0;
        stand_probe_kit::ProbeResult out;
        out.metrics = stand_probe_kit::metrics_json(m, {spec.block_size, spec.queue_depth, spec.jobs, spec.file_size / kMiB});
        out.metrics["prepare_s"] = prep.prepare_s;
        out.latency_histogram_ns = stand_probe_kit::latency_histogram(r.latency.buckets());
        stand_probe_kit::add_test_file_facts(out.facts, prep.mount, prep.dir, spec.path);
        out.facts["file_given"] = prep.file_given;
        out.facts["file_reused"] = prep.file_reused;
        out.facts["engine"] = stand_disk::engine_name(spec.engine);
        out.facts["direct"] = spec.direct;
        out.facts["fixed_buffers"] = r.fixed_buffers;
        out.facts["pattern"] = std::string(spec.random ? "random" : "sequential") + (spec.write ? " write" : " read");
        out.notes = notes_of(job_id, prep, r);
        return out;
    }

    // No cleanup_hook(): the job is forgotten, but its shared test file stays
    // until the instance ends: the host cleans up after every step, and
    // rewriting a 1 GiB file (or a control file larger than RAM) for each of
    // the next jobs would cost more than measuring them.

    // The engine the job asked for, or the one that replaces it here (said once, as a warning).
    stand_disk::EngineChoice engine_for(const std::string& job_id, stand_disk::EngineKind requested) const {
        stand_disk::EngineChoice engine;
        try {
            const bool wants_uring = requested == stand_disk::EngineKind::io_uring;
            engine = stand_disk::choose_engine(requested, wants_uring ? stand_disk::uring_setup_errno() : 0);
        } catch (const std::exception& e) {
            throw Error(STAND_E_IO, std::string("disk: ") + job_id + ": params.engine: " + e.what());
        }
        if (!engine.note.empty()) host().warn("disk: " + job_id + ": " + engine.note);
        return engine;
    }

    // Writes the shared test file unless this instance holds it already; it is shared by the jobs.
    void write_test_file(const std::string& job_id, Prepared& prep, std::uint64_t size_mib) {
        const std::string& path = prep.spec.path;
        if (!files_.holds(path))
            host().info("disk: writing the " + std::to_string(size_mib) + " MiB test file " + path + " (" +
                        prep.mount.fs_type + " on " + prep.mount.source + "), shared by the jobs of this instance");
        std::optional<stand_disk::TestFiles::Use> use;
        try {
            use = files_.acquire(prep.dir, size_mib, [this] { return cancelled(); },
                                 [this](double f) { report_progress(f, "writing the test file"); });
        } catch (const std::exception& e) {
            throw Error(STAND_E_IO, "disk: " + job_id + ": preparing the test file: " + e.what());
        }
        if (!use) throw Error(STAND_E_CANCELLED, "disk: " + job_id + ": cancelled while writing the test file " + path);
        prep.file_reused = use->reused;
        prep.prepare_s = use->write_s;
    }

    stand_disk::TestFiles files_;  // removes the test files it wrote when the instance ends
};

}  // namespace

STAND_CPP_PLUGIN(Disk, "disk", "Disk probe", "0.1.0",
                 "Self-timed disk probe: io_uring (libaio fallback) with O_DIRECT, time-based, CrystalDiskMark profiles "
                 "(SEQ1M Q8T1/Q1T1, RND4K Q32T1/Q1T1, read and write); MB/s, MiB/s, IOPS, a latency "
                 "histogram and its own CPU.",
                 stand::cpp::ConfigSpec())
