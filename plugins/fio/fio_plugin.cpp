// fio: a stand.probe/1 plugin that runs the real fio binary with the job
// equivalent to each disk probe job, so every number of stand's own disk
// probe can be checked against fio side by side. prepare() refuses RAM-backed
// test directories and has fio lay the test file out in full; run() runs fio
// through the host's process service and reads its json+ output; cleanup()
// removes the file.
#include <stand/cpp/executable.hpp>
#include <stand/stand.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <stand/kits/probe/disk_params.hpp>
#include "fio_command.hpp"
#include "fio_output.hpp"
#include <stand/kits/probe/mount_info.hpp>

namespace {

using stand::cpp::Error;
using stand_fio::FioJobSpec;
using stand_fio::JobDef;
namespace json = boost::json;
namespace fs = std::filesystem;

constexpr std::uint64_t kMiB = 1u << 20;

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

const JobDef& job_or_throw(const std::string& id) {
    if (const JobDef* j = stand_fio::find_job(id)) return *j;
    std::string known;
    for (const auto& j : stand_fio::job_catalogue()) known += (known.empty() ? "" : ", ") + std::string(j.id);
    throw Error(STAND_E_NOT_FOUND, "fio: no job '" + id + "' (jobs: " + known + ")");
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Prepared {
    FioJobSpec spec;
    stand_probe_kit::MountInfo mount;
    std::string dir;
};

// How a fio process ended and what it printed (stdout and stderr together).
struct FioExit {
    int exit_code = 0;
    std::string output;
};

class Fio : public stand::cpp::Instance, public stand::cpp::Probe {
public:
    Fio(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        auto cfg = config_spec().read(config);
        box_ = cfg.string("box");
        cfg.finish();
    }

    ~Fio() override {
        for (auto& kv : prepared_) ::unlink(kv.second.spec.path.c_str());
    }

    json::array list_jobs() override {
        json::array jobs;
        const json::value schema = params_spec().schema();
        for (const auto& j : stand_fio::job_catalogue()) {
            FioJobSpec spec;
            spec.random = j.random;
            spec.write = j.write;
            std::string desc = std::string(j.label) + " through the real fio: --rw=" + stand_fio::rw_of(spec) +
                               " --bs=" + std::to_string(j.block_size) + " --iodepth=" + std::to_string(j.queue_depth) +
                               " --numjobs=1 --direct=1 --time_based, io_uring (or libaio), json+";
            jobs.push_back(json::object{{"id", j.id}, {"description", desc}, {"params_schema", schema}});
        }
        return jobs;
    }

    void prepare(const std::string& job_id, const json::object& params) override {
        const JobDef& job = job_or_throw(job_id);
        Prepared prep = read_params(job, params);
        if (!stand::cpp::find_on_path("fio", stand::cpp::search_path()))
            throw Error(STAND_E_UNSUPPORTED, "fio: the fio binary was not found on PATH (apt-get install fio)");
        check_dir(prep);

        if (auto it = prepared_.find(job_id); it != prepared_.end()) {
            ::unlink(it->second.spec.path.c_str());
            prepared_.erase(it);
        }
        auto& spec = prep.spec;
        spec.path = prep.dir + (prep.dir.ends_with('/') ? "" : "/") + "stand-fio." + std::to_string(::getpid()) + "." +
                    job_id + ".dat";
        ::unlink(spec.path.c_str());  // fio would reuse a file of the right size, holes and all
        host_.info("fio: laying out the " + std::to_string(spec.size_bytes / kMiB) + " MiB test file " + spec.path +
                   " (" + prep.mount.fs_type + " on " + prep.mount.source + ")");
        try {
            lay_out(job_id, spec);
        } catch (...) {
            ::unlink(spec.path.c_str());
            throw;
        }
        prepared_[job_id] = std::move(prep);
    }

    json::object run(const std::string& job_id) override {
        job_or_throw(job_id);
        auto it = prepared_.find(job_id);
        if (it == prepared_.end()) throw Error(STAND_E_BAD_STATE, "fio: job '" + job_id + "' was not prepared");
        const Prepared& prep = it->second;
        const FioJobSpec& spec = prep.spec;
        const auto argv = stand_fio::run_argv(spec);
        const FioExit done = run_fio(job_id, argv, job_id + ".out", std::chrono::seconds(spec.duration_s), "measuring");

        stand_fio::FioReport report;
        stand_fio::FioMetrics m;
        try {
            report = stand_fio::read_fio_run(done.output, done.exit_code);
            m = stand_fio::metrics_of(report, spec.write);
        } catch (const stand_fio::FioOutputError& e) {
            throw Error(STAND_E_IO, "fio: " + job_id + ": " + e.what());
        }

        json::object metrics{
            {"mb_s", m.mb_s},
            {"mib_s", m.mib_s},
            {"iops", m.iops},
            {"lat_mean_us", m.lat_mean_us},
            {"cpu_s", m.cpu_s},
            {"cpu_pct", m.cpu_pct},
            {"cpu_us_per_io", m.cpu_us_per_io},
            {"ios", m.ios},
            {"seconds", m.seconds},
            {"block_size", spec.block_size},
            {"queue_depth", spec.queue_depth},
            {"jobs", spec.jobs},
            {"size_mib", spec.size_bytes / kMiB},
        };
        json::array histogram;
        for (const auto& [ns, count] : (spec.write ? report.write : report.read).clat_bins)
            histogram.push_back(json::array{ns, count});
        json::object facts{{"tool", "fio"},
                           {"fio_version", report.version},
                           {"engine", spec.engine},
                           {"filesystem", prep.mount.fs_type},
                           {"mount", prep.mount.mount_point},
                           {"device", prep.mount.source},
                           {"dir", prep.dir},
                           {"file", spec.path},
                           {"command", stand_fio::command_line(argv)},
                           {"box", box_used_.empty() ? "none" : box_used_}};
        json::array notes;
        for (const auto& line : report.other_lines) notes.emplace_back(line);
        if (done.exit_code != 0) notes.emplace_back("fio exited with code " + std::to_string(done.exit_code));
        if (!box_note_.empty()) notes.emplace_back(box_note_);
        return {{"metrics", std::move(metrics)},
                {"latency_histogram_ns", std::move(histogram)},
                {"facts", std::move(facts)},
                {"notes", std::move(notes)}};
    }

    stand_result cleanup(const std::string& job_id) override {
        job_or_throw(job_id);
        auto it = prepared_.find(job_id);
        if (it == prepared_.end()) return STAND_OK_NOTHING_TO_DO;
        const std::string path = it->second.spec.path;
        prepared_.erase(it);
        if (::unlink(path.c_str()) != 0 && errno != ENOENT)
            throw Error(STAND_E_IO, "fio: " + job_id + ": removing the test file " + path + ": " + std::strerror(errno));
        return STAND_OK;
    }

private:
    Prepared read_params(const JobDef& job, const json::object& params) const {
        auto p = params_spec().read(params, "fio: params");
        Prepared prep;
        const auto [dir, size_mib, duration_s, block_size, queue_depth, jobs, engine] =
            stand_probe_kit::read_disk_params(p, job);
        p.finish();
        prep.dir = dir;
        if (block_size % 512 != 0)
            throw Error(STAND_E_INVALID_ARGUMENT,
                        "fio: params.block_size: " + std::to_string(block_size) + " is not a multiple of 512 (O_DIRECT)");
        const std::uint64_t size = static_cast<std::uint64_t>(size_mib) * kMiB;
        if (size < static_cast<std::uint64_t>(block_size))
            throw Error(STAND_E_INVALID_ARGUMENT, "fio: params.size_mib: " + std::to_string(size_mib) +
                                                      " MiB is smaller than one block of " + std::to_string(block_size) +
                                                      " bytes");
        auto& spec = prep.spec;
        spec.name = job.id;
        spec.size_bytes = size;
        spec.random = job.random;
        spec.write = job.write;
        spec.block_size = static_cast<std::uint32_t>(block_size);
        spec.queue_depth = static_cast<std::uint32_t>(queue_depth);
        spec.jobs = static_cast<std::uint32_t>(jobs);
        spec.duration_s = static_cast<std::uint32_t>(duration_s);
        spec.engine = engine;
        return prep;
    }

    // Refuses RAM-backed and too small test directories before any I/O.
    static void check_dir(Prepared& prep) {
        try {
            prep.mount = stand_probe_kit::mount_of(prep.dir);
        } catch (const std::exception& e) {
            throw Error(STAND_E_INVALID_ARGUMENT, std::string("fio: params.dir: ") + e.what());
        }
        if (prep.mount.ram_backed)
            throw Error(STAND_E_INVALID_ARGUMENT,
                        "fio: refusing test directory " + prep.dir + ": it is on " + prep.mount.fs_type + " (mount " +
                            (prep.mount.mount_point.empty() ? std::string("unknown") : prep.mount.mount_point) +
                            "), which is RAM, not a disk; choose a directory on the disk under test");
        if (prep.mount.free_bytes < prep.spec.size_bytes)
            throw Error(STAND_E_IO, "fio: " + prep.dir + " has " + std::to_string(prep.mount.free_bytes / kMiB) +
                                        " MiB free, the test file needs " +
                                        std::to_string(prep.spec.size_bytes / kMiB) + " MiB");
    }

    // fio writes the whole file once; then it must be on disk and hole-free.
    void lay_out(const std::string& job_id, const FioJobSpec& spec) {
        const auto argv = stand_fio::layout_argv(spec);
        // 1 GiB at a slow 20 MB/s takes under a minute; no deadline but cancellation.
        const FioExit done = run_fio(job_id, argv, job_id + ".layout.out", std::chrono::seconds(0), "laying out the test file");
        if (done.exit_code != 0) {
            std::vector<std::string> lines;
            std::istringstream in(done.output);
            for (std::string line; std::getline(in, line);)
                if (!line.empty() && line[0] != ' ' && line != "{" && line != "}") lines.push_back(line);
            throw Error(STAND_E_IO, "fio: " + job_id + ": laying out " + spec.path + " failed, fio exited with code " +
                                        std::to_string(done.exit_code) + ": " + stand_fio::first_lines(lines, 5));
        }
        const int fd = ::open(spec.path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw Error(STAND_E_IO, "fio: " + job_id + ": fio did not create " + spec.path + ": " + std::strerror(errno));
        struct stat st{};
        const bool synced = ::fdatasync(fd) == 0;
        const int sync_errno = errno;
        const bool statted = ::fstat(fd, &st) == 0;
        ::close(fd);
        if (!synced) throw Error(STAND_E_IO, "fio: " + job_id + ": fdatasync(" + spec.path + "): " + std::strerror(sync_errno));
        const std::uint64_t allocated = statted ? static_cast<std::uint64_t>(st.st_blocks) * 512u : 0;
        if (!statted || static_cast<std::uint64_t>(st.st_size) != spec.size_bytes || allocated < spec.size_bytes)
            throw Error(STAND_E_IO, "fio: " + job_id + ": after fio's layout " + spec.path + " has " +
                                        std::to_string(statted ? st.st_size : 0) + " bytes, " + std::to_string(allocated) +
                                        " allocated, not the " + std::to_string(spec.size_bytes) +
                                        " written bytes reads need");
    }

    // Runs fio through stand.process/1 and waits, checking cancellation.
    // `expected` > 0: the run's length; fio is killed 120 s after it.
    FioExit run_fio(const std::string& job_id, const std::vector<std::string>& argv, const std::string& out_name,
                    std::chrono::seconds expected, const char* what) {
        const fs::path out = fs::path(host_.data_dir()) / out_name;
        std::error_code ec;
        fs::create_directories(out.parent_path(), ec);
        fs::remove(out, ec);  // the process service appends
        json::array args;
        for (const auto& a : argv) args.emplace_back(a);
        json::object spec{{"argv", std::move(args)}, {"output", out.string()}, {"new_process_group", true}};
        auto process = spawn(job_id, spec);

        const auto t0 = std::chrono::steady_clock::now();
        const auto limit = expected + std::chrono::seconds(120);
        stand_process_status status{};
        while (!process->wait(200, status)) {
            if (cancelled()) throw Error(STAND_E_CANCELLED, "fio: " + job_id + ": cancelled while " + what);
            const auto elapsed = std::chrono::steady_clock::now() - t0;
            if (expected.count() > 0) {
                report(std::min(1.0, std::chrono::duration<double>(elapsed) / expected), what);
                if (elapsed > limit)  // ~Process kills it
                    throw Error(STAND_E_TIMEOUT, "fio: " + job_id + ": fio still running " +
                                                     std::to_string(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count()) +
                                                     " s into a " + std::to_string(expected.count()) + " s run; killed");
            } else {
                report(-1, what);
            }
        }
        FioExit done;
        done.output = read_file(out);
        if (status.state == STAND_PROCESS_SIGNALED)
            throw Error(STAND_E_IO, "fio: " + job_id + ": fio was killed by signal " + std::to_string(status.signal) +
                                        " while " + what + "; output in " + out.string());
        done.exit_code = status.exit_code;
        return done;
    }

    // In the measured box when the host has one; otherwise outside, with a note.
    std::unique_ptr<stand::cpp::Process> spawn(const std::string& job_id, json::object spec) {
        box_note_.clear();
        box_used_.clear();
        try {
            if (!box_.empty()) {
                spec["box"] = box_;
                try {
                    auto p = std::make_unique<stand::cpp::Process>(host_, spec);
                    box_used_ = box_;
                    return p;
                } catch (const Error& e) {
                    if (e.code() != STAND_E_INVALID_ARGUMENT) throw;
                    box_note_ = "fio ran outside the box '" + box_ + "': " + e.what();
                    spec.erase("box");
                }
            }
            return std::make_unique<stand::cpp::Process>(host_, spec);
        } catch (const Error& e) {
            if (e.code() == STAND_E_NOT_FOUND)
                throw Error(STAND_E_UNSUPPORTED, "fio: the fio binary was not found on PATH (apt-get install fio)");
            throw Error(e.code(), "fio: " + job_id + ": starting fio: " + e.what());
        }
    }

    bool cancelled() const { return host_.cancelled(); }
    void report(double fraction, const char* message) const { host_.report_progress(fraction, message); }

    stand::cpp::Host host_;
    std::string box_;
    std::string box_used_;
    std::string box_note_;
    std::map<std::string, Prepared> prepared_;
};

}  // namespace

STAND_CPP_PLUGIN(Fio, "fio", "fio probe", "0.1.0",
                 "Runs the real fio (--direct=1 --time_based, json+) with the disk probe's CrystalDiskMark "
                 "jobs (SEQ1M Q8T1/Q1T1, RND4K Q32T1/Q1T1, read and write) and reports the same metrics, so "
                 "the disk probe can be checked against fio side by side.",
                 config_spec())
