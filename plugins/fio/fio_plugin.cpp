// fio: a stand.probe/1 plugin that runs the real fio binary with the job
// equivalent to each disk probe job, so every number of stand's own disk
// probe can be checked against fio side by side (the probe kit's
// ProbePlugin, the disk probe's jobs and params). prepare_hook() refuses
// RAM-backed test directories and has fio lay the test file out in full;
// run_hook() runs fio through the host's process service (fio_runner.hpp) and
// reads its json+ output; cleanup_hook() removes the file.
#include <stand/cpp/executable.hpp>
#include <stand/stand.hpp>

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include <stand/kits/probe/disk_metrics.hpp>
#include <stand/kits/probe/disk_params.hpp>
#include <stand/kits/probe/probe_plugin.hpp>
#include <stand/kits/probe/test_dir.hpp>
#include "fio_command.hpp"
#include "fio_output.hpp"
#include "fio_runner.hpp"

namespace {

using stand::cpp::Error;
using stand_fio::FioJobSpec;
using stand_fio::JobDef;
using stand_probe_kit::kMiB;
namespace json = boost::json;

// A job's params: the disk probes' shared keys, in fio's words.
const stand::cpp::ConfigSpec& params_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_probe_kit::declare_disk_params(s);
        s.key("duration_s").describe("fio --runtime (time-based)");
        s.key("queue_depth").describe("fio --iodepth; default the job's");
        s.key("jobs").describe("fio --numjobs (reported as one group)");
        s.key("engine").describe("fio --ioengine");
        return s;
    }();
    return spec;
}

// The plugin's config.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        s.string("box", "box fio runs in; empty: none (also when the host has no boxes)").by_default("measured");
        return s;
    }();
    return spec;
}

// config.box, the config checked.
std::string configured_box(const json::object& config) {
    auto cfg = config_spec().read(config);
    std::string box = cfg.string("box");
    cfg.finish();
    return box;
}

// What prepare_hook() keeps of a job for run_hook().
struct Prepared {
    FioJobSpec spec;
    stand_probe_kit::MountInfo mount;
    std::string dir;
};

Prepared read_params(const JobDef& job, const json::object& params) {
    auto p = params_spec().read(params, "fio: params");
    const auto d = stand_probe_kit::read_disk_params(p, job);
    p.finish();
    stand_probe_kit::check_direct_block_size("fio", d);
    const std::uint64_t size = static_cast<std::uint64_t>(d.size_mib) * kMiB;
    if (size < static_cast<std::uint64_t>(d.block_size))
        throw Error(STAND_E_INVALID_ARGUMENT, "fio: params.size_mib: " + std::to_string(d.size_mib) +
                                                  " MiB is smaller than one block of " + std::to_string(d.block_size) +
                                                  " bytes");
    Prepared prep;
    prep.dir = d.dir;
    auto& spec = prep.spec;
    spec.name = job.id;
    spec.size_bytes = size;
    spec.random = job.random;
    spec.write = job.write;
    spec.block_size = static_cast<std::uint32_t>(d.block_size);
    spec.queue_depth = static_cast<std::uint32_t>(d.queue_depth);
    spec.jobs = static_cast<std::uint32_t>(d.jobs);
    spec.duration_s = static_cast<std::uint32_t>(d.duration_s);
    spec.engine = d.engine;
    return prep;
}

class Fio : public stand_probe_kit::ProbePlugin<JobDef, Prepared> {
public:
    Fio(const stand::cpp::Host& host, const json::object& config)
        : ProbePlugin(host, "fio", stand_fio::job_catalogue()), runner_(host, configured_box(config)) {}

    ~Fio() override {
        for (const auto& [job_id, prep] : prepared_jobs()) ::unlink(prep.spec.path.c_str());
    }

private:
    stand_probe_kit::JobListing list_jobs_hook(const JobDef& j) const override {
        FioJobSpec spec;
        spec.random = j.random;
        spec.write = j.write;
        return {std::string(j.label) + " through the real fio: --rw=" + stand_fio::rw_of(spec) +
                    " --bs=" + std::to_string(j.block_size) + " --iodepth=" + std::to_string(j.queue_depth) +
                    " --numjobs=1 --direct=1 --time_based, io_uring (or libaio), json+",
                params_spec().schema()};
    }

    Prepared prepare_hook(const JobDef& job, const json::object& params) override {
        Prepared prep = read_params(job, params);
        if (!stand::cpp::find_on_path("fio", stand::cpp::search_path()))
            throw Error(STAND_E_UNSUPPORTED, stand_fio::kFioMissing);
        prep.mount = stand_probe_kit::test_dir_mount("fio", prep.dir);
        stand_probe_kit::check_free_space("fio", prep.dir, prep.mount, prep.spec.size_bytes / kMiB);

        if (auto earlier = take_prepared(job.id)) ::unlink(earlier->spec.path.c_str());
        auto& spec = prep.spec;
        spec.path = prep.dir + (prep.dir.ends_with('/') ? "" : "/") + "stand-fio." + std::to_string(::getpid()) + "." +
                    job.id + ".dat";
        ::unlink(spec.path.c_str());  // fio would reuse a file of the right size, holes and all
        host().info("fio: laying out the " + std::to_string(spec.size_bytes / kMiB) + " MiB test file " + spec.path +
                    " (" + prep.mount.fs_type + " on " + prep.mount.source + ")");
        try {
            stand_fio::lay_out(runner_, job.id, spec);
        } catch (...) {
            ::unlink(spec.path.c_str());
            throw;
        }
        return prep;
    }

    stand_probe_kit::ProbeResult run_hook(const JobDef& job, const Prepared& prep) override {
        const std::string job_id = job.id;
        const FioJobSpec& spec = prep.spec;
        const auto argv = stand_fio::run_argv(spec);
        const auto done = runner_.run(job_id, argv, job_id + ".out", std::chrono::seconds(spec.duration_s), "measuring");
        stand_fio::FioReport report;
        stand_fio::FioMetrics m;
        try {
            report = stand_fio::read_fio_run(done.output, done.exit_code);
            m = stand_fio::metrics_of(report, spec.write);
        } catch (const stand_fio::FioOutputError& e) {
            throw Error(STAND_E_IO, "fio: " + job_id + ": " + e.what());
        }
        stand_probe_kit::ProbeResult out;
        out.metrics = stand_probe_kit::metrics_json(m, {spec.block_size, spec.queue_depth, spec.jobs, spec.size_bytes / kMiB});
        out.latency_histogram_ns =
            stand_probe_kit::latency_histogram((spec.write ? report.write : report.read).clat_bins);
        out.facts = {{"tool", "fio"}, {"fio_version", report.version}, {"engine", spec.engine}};
        stand_probe_kit::add_test_file_facts(out.facts, prep.mount, prep.dir, spec.path);
        out.facts["command"] = stand_fio::command_line(argv);
        out.facts["box"] = runner_.box_used().empty() ? "none" : runner_.box_used();
        for (const auto& line : report.other_lines) out.notes.emplace_back(line);
        if (done.exit_code != 0) out.notes.emplace_back("fio exited with code " + std::to_string(done.exit_code));
        if (!runner_.box_note().empty()) out.notes.emplace_back(runner_.box_note());
        return out;
    }

    void cleanup_hook(const JobDef& job, Prepared& prep) override {
        const std::string& path = prep.spec.path;
        if (::unlink(path.c_str()) != 0 && errno != ENOENT)
            throw Error(STAND_E_IO, "fio: " + std::string(job.id) + ": removing the test file " + path + ": " +
                                        std::strerror(errno));
    }

    stand_fio::FioRunner runner_;
};

}  // namespace

STAND_CPP_PLUGIN(Fio, "fio", "fio probe", "0.1.0",
                 "Runs the real fio (--direct=1 --time_based, json+) with the disk probe's CrystalDiskMark "
                 "jobs (SEQ1M Q8T1/Q1T1, RND4K Q32T1/Q1T1, read and write) and reports the same metrics, so "
                 "the disk probe can be checked against fio side by side.",
                 config_spec())
