// sysprobe: a stand.probe/1 plugin mirroring the CPU, memory, crypto and
// archiver rows of a VPS benchmark article, in the units of the tools they
// mirror: sysbench cpu (events/s), sysbench memory (MiB/sec), openssl speed
// (MB/s) and 7z b (MIPS). The first three run in-process on threads made for
// the measured job only; 7z runs through the host's process service.
// prepare() reads and checks the params; run() measures; cleanup() forgets.
#include <stand/stand.hpp>

#include <map>
#include <string>
#include <variant>

#include "job_catalogue.hpp"
#include "jobs.hpp"
#include "machine_facts.hpp"

namespace {

using namespace stand_sysprobe;
using stand::cpp::Error;
namespace json = boost::json;

class SysProbe : public stand::cpp::Instance, public stand::cpp::Probe {
public:
    SysProbe(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigSpec().read(config).finish();  // no config keys
    }

    json::array list_jobs() override {
        json::array jobs;
        for (const auto& j : all_jobs())
            jobs.push_back(json::object{{"id", j.id}, {"description", j.description}, {"params_schema", params_schema(j)}});
        return jobs;
    }

    void prepare(const std::string& job_id, const json::object& params) override {
        prepared_.insert_or_assign(job_id, read_settings(find_job(job_id), params));
    }

    json::object run(const std::string& job_id) override {
        find_job(job_id);
        auto it = prepared_.find(job_id);
        if (it == prepared_.end()) throw Error(STAND_E_BAD_STATE, "sysprobe: job '" + job_id + "' was not prepared");
        const Control control{[this] { return cancelled(); }, [this](double f, const char* m) { report(f, m); }};
        JobOutput out = std::visit(
            [&](const auto& s) -> JobOutput {
                using S = std::decay_t<decltype(s)>;
                if constexpr (std::is_same_v<S, CpuSettings>) return run_cpu_job(job_id, s, control);
                else if constexpr (std::is_same_v<S, MemorySettings>) return run_memory_job(job_id, s, control);
                else if constexpr (std::is_same_v<S, CryptoSettings>) return run_crypto_job(job_id, s, control);
                else return run_sevenzip_job(job_id, s, host_, control);
            },
            it->second);
        out.facts["cpu_model"] = cpu_model();
        out.facts["online_cpus"] = online_cpus();
        for (const auto& note : out.notes) host_.warn("sysprobe: " + job_id + ": " + std::string(note.as_string()));
        return out.to_json();
    }

    stand_result cleanup(const std::string& job_id) override {
        find_job(job_id);
        return prepared_.erase(job_id) ? STAND_OK : STAND_OK_NOTHING_TO_DO;
    }

private:
    bool cancelled() const { return host_.cancelled(); }
    void report(double fraction, const char* message) const { host_.report_progress(fraction, message); }

    stand::cpp::Host host_;
    std::map<std::string, JobSettings> prepared_;
};

}  // namespace

STAND_CPP_PLUGIN(SysProbe, "sysprobe", "System probe (CPU, memory, crypto, 7z)", "0.1.0",
                 "Self-timed CPU, memory, crypto and archiver probe mirroring sysbench cpu/memory (events/s, "
                 "MiB/sec), openssl speed aes-256-cbc/sha256 (MB/s, in-process EVP) and 7z b (MIPS).",
                 stand::cpp::ConfigSpec())
