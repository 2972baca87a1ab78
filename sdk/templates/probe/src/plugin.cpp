// %%name%%: a stand.probe/1 probe on the SDK's probe kit (made by `stand new
// adapter`). ProbePlugin (<stand/kits/probe/probe_plugin.hpp>) answers the
// calls: it looks the job up, keeps what prepare_hook() returns until
// cleanup, and words the errors every probe shares; this file is the job
// table, what a prepared job keeps and the hooks. One job, "write-fsync":
// writes params.size_mib MiB in 1 MiB blocks to a file in params.dir, then
// fdatasync(); the time covers both, so the number is what the disk (not the
// page cache) took. Replace the job with yours.
#include <stand/kits/probe/disk_metrics.hpp>
#include <stand/kits/probe/probe_plugin.hpp>
#include <stand/kits/probe/test_dir.hpp>
#include <stand/stand.hpp>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

namespace json = boost::json;

constexpr std::size_t kBlock = 1u << 20;

// The jobs, in static storage: ProbePlugin needs an `id`, the rest is this probe's.
struct JobDef {
    const char* id;
    const char* description;
};
constexpr JobDef kJobs[] = {
    {"write-fsync", "write size_mib MiB in 1 MiB blocks, then fdatasync; MiB/s of both"},
};

// A job's params, declared once (stand/cpp/config_spec.hpp): prepare_hook()
// reads these keys and list_jobs_hook() gives their JSON Schema.
const stand::cpp::ConfigSpec& params_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        s.string("dir", "a folder on the disk to measure (not tmpfs)").by_default("/var/tmp");
        s.integer("size_mib", "how much one run writes").range(1, 65536).by_default(64);
        return s;
    }();
    return spec;
}

// What prepare_hook() keeps of a job for run_hook().
struct Prepared {
    std::string dir, file;
    std::int64_t size_mib = 0;
    stand_probe_kit::MountInfo mount;
};

class %%Class%% : public stand_probe_kit::ProbePlugin<JobDef, Prepared> {
public:
    %%Class%%(const stand::cpp::Host& host, const json::object& config) : ProbePlugin(host, "%%name%%", kJobs) {
        stand::cpp::ConfigSpec().read(config).finish();  // no config keys: declare yours as params_spec() does
    }

    // The base drops the jobs' state without cleanup_hook(): their files go here.
    ~%%Class%%() override {
        for (const auto& [job_id, prep] : prepared_jobs()) ::unlink(prep.file.c_str());
    }

private:
    stand_probe_kit::JobListing list_jobs_hook(const JobDef& job) const override {
        return {job.description, params_spec().schema()};
    }

    // The params read and checked, the folder refused when it is RAM (tmpfs,
    // ramfs) or too full: everything before any timed I/O.
    Prepared prepare_hook(const JobDef& job, const json::object& params) override {
        auto p = params_spec().read(params, "%%name%%: params");
        Prepared prep;
        prep.dir = p.string("dir");
        prep.size_mib = p.integer("size_mib");
        p.finish();
        prep.mount = stand_probe_kit::test_dir_mount("%%name%%", prep.dir);
        stand_probe_kit::check_free_space("%%name%%", prep.dir, prep.mount, static_cast<std::uint64_t>(prep.size_mib));
        if (auto earlier = take_prepared(job.id)) ::unlink(earlier->file.c_str());
        prep.file = prep.dir + "/%%name%%-" + std::to_string(::getpid()) + "." + job.id + ".dat";
        return prep;
    }

    stand_probe_kit::ProbeResult run_hook(const JobDef& job, const Prepared& prep) override {
        const int fd = ::open(prep.file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) throw io_error("cannot create " + prep.file);
        const std::vector<char> block(kBlock, 'x');
        const std::uint64_t t0 = host().monotonic_ns();
        for (std::int64_t i = 0; i < prep.size_mib; ++i) {
            if (cancelled()) {  // polled before each 1 MiB write, well within 100 ms
                ::close(fd);
                throw stand::cpp::Error(STAND_E_CANCELLED, "%%name%%: " + std::string(job.id) + " cancelled");
            }
            report_progress(static_cast<double>(i) / static_cast<double>(prep.size_mib), "writing");
            if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) {
                const stand::cpp::Error e = io_error("cannot write " + prep.file);
                ::close(fd);
                throw e;
            }
        }
        const bool synced = ::fdatasync(fd) == 0;
        const int sync_errno = errno;
        ::close(fd);
        if (!synced)
            throw stand::cpp::Error(STAND_E_IO, "%%name%%: fdatasync " + prep.file + ": " + std::strerror(sync_errno));
        const double seconds = static_cast<double>(host().monotonic_ns() - t0) / 1e9;

        stand_probe_kit::ProbeResult out;
        out.metrics = {{"mib_s", static_cast<double>(prep.size_mib) / seconds}, {"seconds", seconds}};
        stand_probe_kit::add_test_file_facts(out.facts, prep.mount, prep.dir, prep.file);
        out.facts["size_mib"] = prep.size_mib;
        out.notes = {"one pass; the time includes the final fdatasync"};
        return out;
    }

    void cleanup_hook(const JobDef&, Prepared& prep) override { ::unlink(prep.file.c_str()); }

    static stand::cpp::Error io_error(const std::string& what) {
        return stand::cpp::Error(STAND_E_IO, "%%name%%: " + what + ": " + std::strerror(errno));
    }
};

}  // namespace

STAND_CPP_PLUGIN(%%Class%%, "%%name%%", "%%name%%", "0.1.0",
                 "A probe made by `stand new adapter`: MiB/s of a write and its fdatasync in params.dir.",
                 stand::cpp::ConfigSpec())
