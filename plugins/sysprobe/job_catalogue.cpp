#include "job_catalogue.hpp"

#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/error.hpp>
#include <stand/kits/probe/probe_plugin.hpp>


#include "machine_facts.hpp"

namespace stand_sysprobe {
namespace {

using stand::cpp::ConfigError;
using stand::cpp::ConfigSpec;
using stand::cpp::ConfigValues;

// Caps keeping one event short: the workers stop between events only, and
// the host's cancellation must take effect within a fraction of a second.
constexpr std::int64_t kMaxPrime = 100000;        // about 50 ms per event on a 3 GHz core
constexpr std::int64_t kMaxBlockKib = 64 * 1024;  // 64 MiB: milliseconds per pass
constexpr std::int64_t kMaxCryptoBlock = 1 << 20;

constexpr JobDef kJobs[] = {
    {"cpu-1t", JobKind::cpu,
     "sysbench cpu --cpu-max-prime=20000 --threads=1: primes below max_prime by trial division, events per second"},
    {"cpu-all", JobKind::cpu,
     "sysbench cpu --cpu-max-prime=20000 --threads=<online CPUs>: the same on every CPU, events per second of all threads"},
    {"mem-read", JobKind::memory,
     "sysbench memory --memory-block-size=1M --memory-total-size=10G --memory-oper=read: word-by-word reads of a 1 MiB block, MiB/sec"},
    {"mem-write", JobKind::memory,
     "sysbench memory --memory-block-size=1M --memory-total-size=10G --memory-oper=write: word-by-word writes of a 1 MiB block, MiB/sec"},
    {"aes-256-cbc", JobKind::crypto,
     "openssl speed -evp aes-256-cbc, 16384-byte column: EVP_EncryptUpdate in place per buffer, MB/s"},
    {"sha256", JobKind::crypto, "openssl speed sha256, 16384-byte column: one EVP_Digest per buffer, MB/s"},
    {"7z-bench", JobKind::sevenzip,
     "7z b: the 7-Zip LZMA benchmark run through the host, its \"Tot:\" rating in MIPS; empty with a note when no 7z is installed"},
};

void declare_duration(ConfigSpec& s, std::int64_t fallback) {
    s.integer("duration_s", "time-based run length").range(1, 86400).by_default(fallback);
}

// A job's params, declared once: its schema and its reader.
ConfigSpec params_spec(const JobDef& job) {
    ConfigSpec s;
    switch (job.kind) {
        case JobKind::cpu:
            s.integer("max_prime", "--cpu-max-prime; at most 100000 so one event stays well below a second")
                .range(3, kMaxPrime)
                .by_default(20000);
            s.integer("threads", std::string("worker threads; default ") +
                                     (std::string(job.id) == "cpu-1t" ? "1" : "online CPUs"))
                .range(1, 1024);
            declare_duration(s, 10);
            break;
        case JobKind::memory:
            s.integer("block_size_kib", "--memory-block-size, a power of two, at most 64 MiB")
                .range(1, kMaxBlockKib)
                .by_default(1024);
            s.integer("total_mib", "--memory-total-size: the run ends when this much is transferred")
                .range(1, 1073741824)
                .by_default(10240);
            s.integer("threads", "worker threads").range(1, 1024).by_default(1);
            s.choice("scope", {"global", "local"}, "--memory-scope: one block shared by all threads, or one per thread")
                .by_default("global");
            declare_duration(s, 10);
            break;
        case JobKind::crypto:
            s.integer("block_bytes", "bytes per EVP call (openssl speed -bytes); a multiple of 16 for AES")
                .range(16, kMaxCryptoBlock)
                .by_default(16384);
            declare_duration(s, 3);
            break;
        case JobKind::sevenzip:
            s.string("binary", "7z executable; default the first of 7z, 7za, 7zz on PATH");
            s.integer("iterations", "7z b N; absent or 0: 7-Zip's default").range(1, 1000).zero_is_unset();
            s.integer("threads", "-mmt N; absent or 0: 7-Zip's default (all CPUs)").range(1, 1024).zero_is_unset();
            s.integer("dictionary_log", "-md N: largest dictionary 2^N bytes; absent or 0: 7-Zip's default")
                .range(18, 30)
                .zero_is_unset();
            s.integer("timeout_s", "how long 7z may run before it is killed").range(1, 86400).by_default(900);
            s.string("box", "box to run 7z in (\"measured\"); empty: none, like the probe's own threads").by_default("");
            break;
    }
    return s;
}

CpuSettings read_cpu(const JobDef& job, ConfigValues& p) {
    CpuSettings s;
    s.max_prime = static_cast<std::uint64_t>(p.integer("max_prime"));
    const std::int64_t default_threads = std::string(job.id) == "cpu-1t" ? 1 : online_cpus();
    s.threads = static_cast<unsigned>(p.optional_integer("threads").value_or(default_threads));
    s.duration_s = p.integer("duration_s");
    return s;
}

MemorySettings read_memory(const JobDef& job, ConfigValues& p) {
    MemorySettings s;
    s.write = std::string(job.id) == "mem-write";
    const auto block_kib = p.integer("block_size_kib");
    if ((block_kib & (block_kib - 1)) != 0)
        throw ConfigError(p.path() + ".block_size_kib: " + std::to_string(block_kib) +
                          " is not a power of two (sysbench requires one)");
    s.block_bytes = static_cast<std::uint64_t>(block_kib) * 1024;
    s.total_bytes = static_cast<std::uint64_t>(p.integer("total_mib")) << 20;
    s.threads = static_cast<unsigned>(p.integer("threads"));
    s.duration_s = p.integer("duration_s");
    s.shared_buffer = p.string("scope") == "global";
    if (s.total_bytes / s.block_bytes / s.threads == 0)
        throw ConfigError(p.path() + ".total_mib: " + std::to_string(s.total_bytes >> 20) +
                          " MiB is less than one block of " + std::to_string(block_kib) + " KiB per thread");
    return s;
}

CryptoSettings read_crypto(const JobDef& job, ConfigValues& p) {
    CryptoSettings s;
    s.sha256 = std::string(job.id) == "sha256";
    s.block_bytes = static_cast<std::uint64_t>(p.integer("block_bytes"));
    if (!s.sha256 && s.block_bytes % 16 != 0)
        throw ConfigError(p.path() + ".block_bytes: " + std::to_string(s.block_bytes) +
                          " is not a multiple of the AES block (16 bytes)");
    s.duration_s = p.integer("duration_s");
    return s;
}

SevenZipSettings read_sevenzip(ConfigValues& p) {
    SevenZipSettings s;
    s.binary = p.string("binary");
    s.iterations = p.optional_integer("iterations");
    s.threads = p.optional_integer("threads");
    s.dictionary_log = p.optional_integer("dictionary_log");
    s.timeout_s = p.integer("timeout_s");
    s.box = p.string("box");
    return s;
}

}  // namespace

std::span<const JobDef> all_jobs() { return kJobs; }

const JobDef& find_job(const std::string& id) { return stand_probe_kit::find_job<JobDef>("sysprobe", kJobs, id); }

boost::json::value params_schema(const JobDef& job) { return params_spec(job).schema(); }

JobSettings read_settings(const JobDef& job, const boost::json::object& params) {
    const ConfigSpec spec = params_spec(job);
    auto p = spec.read(params, "sysprobe: " + std::string(job.id) + ": params");
    JobSettings settings;
    switch (job.kind) {
        case JobKind::cpu: settings = read_cpu(job, p); break;
        case JobKind::memory: settings = read_memory(job, p); break;
        case JobKind::crypto: settings = read_crypto(job, p); break;
        case JobKind::sevenzip: settings = read_sevenzip(p); break;
    }
    p.finish();
    return settings;
}

}  // namespace stand_sysprobe
