// sysprobe: a stand.probe/1 plugin mirroring the CPU, memory, crypto and
// archiver rows of a VPS benchmark article, in the units of the tools they
// mirror: sysbench cpu (events/s), sysbench memory (MiB/sec), openssl speed
// (MB/s) and 7z b (MIPS), on the probe kit's ProbePlugin. The first three run
// in-process on threads made for the measured job only; 7z runs through the
// host's process service. prepare_hook() reads and checks the params into the
// job's settings; run_hook() measures.
#include <stand/kits/probe/probe_plugin.hpp>
#include <stand/stand.hpp>

#include <string>
#include <variant>

#include "job_catalogue.hpp"
#include "jobs.hpp"
#include "machine_facts.hpp"

namespace {

using namespace stand_sysprobe;
namespace json = boost::json;

class SysProbe : public stand_probe_kit::ProbePlugin<JobDef, JobSettings> {
public:
    SysProbe(const stand::cpp::Host& host, const json::object& config) : ProbePlugin(host, "sysprobe", all_jobs()) {
        stand::cpp::ConfigSpec().read(config).finish();  // no config keys
    }

private:
    stand_probe_kit::JobListing list_jobs_hook(const JobDef& job) const override {
        return {job.description, params_schema(job)};
    }

    JobSettings prepare_hook(const JobDef& job, const json::object& params) override {
        return read_settings(job, params);
    }

    stand_probe_kit::ProbeResult run_hook(const JobDef& job, const JobSettings& settings) override {
        const std::string job_id = job.id;
        const Control control{[this] { return cancelled(); },
                              [this](double f, const char* m) { report_progress(f, m); }};
        JobOutput out = std::visit(
            [&](const auto& s) -> JobOutput {
                using S = std::decay_t<decltype(s)>;
                if constexpr (std::is_same_v<S, CpuSettings>) return run_cpu_job(job_id, s, control);
                else if constexpr (std::is_same_v<S, MemorySettings>) return run_memory_job(job_id, s, control);
                else if constexpr (std::is_same_v<S, CryptoSettings>) return run_crypto_job(job_id, s, control);
                else return run_sevenzip_job(job_id, s, host(), control);
            },
            settings);
        out.facts["cpu_model"] = cpu_model();
        out.facts["online_cpus"] = online_cpus();
        for (const auto& note : out.notes) host().warn("sysprobe: " + job_id + ": " + std::string(note.as_string()));
        return out;
    }
};

}  // namespace

STAND_CPP_PLUGIN(SysProbe, "sysprobe", "System probe (CPU, memory, crypto, 7z)", "0.1.0",
                 "Self-timed CPU, memory, crypto and archiver probe mirroring sysbench cpu/memory (events/s, "
                 "MiB/sec), openssl speed aes-256-cbc/sha256 (MB/s, in-process EVP) and 7z b (MIPS).",
                 stand::cpp::ConfigSpec())
