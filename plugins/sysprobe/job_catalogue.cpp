#include "job_catalogue.hpp"

#include <stand/cpp/config.hpp>
#include <stand/cpp/error.hpp>

#include <string_view>

#include "machine_facts.hpp"

namespace stand_sysprobe {
namespace {

using stand::cpp::ConfigError;
using stand::cpp::ConfigReader;
using stand::cpp::Error;

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

constexpr std::string_view kDuration =
    R"json("duration_s":{"type":"integer","minimum":1,"maximum":86400,"default":DEFAULT,"description":"time-based run length"})json";

std::string duration_schema(int fallback) {
    std::string s(kDuration);
    s.replace(s.find("DEFAULT"), 7, std::to_string(fallback));
    return s;
}

std::string cpu_schema(const JobDef& job) {
    const std::string threads = std::string(job.id) == "cpu-1t" ? "1" : "online CPUs";
    return R"json({"type":"object","additionalProperties":false,"properties":{
  "max_prime":{"type":"integer","minimum":3,"maximum":100000,"default":20000,"description":"--cpu-max-prime; at most 100000 so one event stays well below a second"},
  "threads":{"type":"integer","minimum":1,"maximum":1024,"description":"worker threads; default )json" +
           threads + R"json("},)json" + duration_schema(10) + "}}";
}

std::string memory_schema() {
    return R"json({"type":"object","additionalProperties":false,"properties":{
  "block_size_kib":{"type":"integer","minimum":1,"maximum":65536,"default":1024,"description":"--memory-block-size, a power of two, at most 64 MiB"},
  "total_mib":{"type":"integer","minimum":1,"maximum":1073741824,"default":10240,"description":"--memory-total-size: the run ends when this much is transferred"},
  "threads":{"type":"integer","minimum":1,"maximum":1024,"default":1},
  "scope":{"type":"string","enum":["global","local"],"default":"global","description":"--memory-scope: one block shared by all threads, or one per thread"},)json" +
           duration_schema(10) + "}}";
}

std::string crypto_schema() {
    return R"json({"type":"object","additionalProperties":false,"properties":{
  "block_bytes":{"type":"integer","minimum":16,"maximum":1048576,"default":16384,"description":"bytes per EVP call (openssl speed -bytes); a multiple of 16 for AES"},)json" +
           duration_schema(3) + "}}";
}

std::string sevenzip_schema() {
    return R"json({"type":"object","additionalProperties":false,"properties":{
  "binary":{"type":"string","description":"7z executable; default the first of 7z, 7za, 7zz on PATH"},
  "iterations":{"type":"integer","minimum":0,"maximum":1000,"description":"7z b N; absent or 0: 7-Zip's default"},
  "threads":{"type":"integer","minimum":0,"maximum":1024,"description":"-mmt N; absent or 0: 7-Zip's default (all CPUs)"},
  "dictionary_log":{"type":"integer","oneOf":[{"const":0},{"minimum":18,"maximum":30}],"description":"-md N: largest dictionary 2^N bytes; absent or 0: 7-Zip's default"},
  "timeout_s":{"type":"integer","minimum":1,"maximum":86400,"default":900},
  "box":{"type":"string","default":"","description":"box to run 7z in (\"measured\"); empty: none, like the probe's own threads"}}})json";
}

// Absent or 0: the tool's own default (0 lets a scenario parameter say "default").
std::optional<std::int64_t> optional_integer(ConfigReader& p, const boost::json::object& params, const char* key,
                                             std::int64_t min, std::int64_t max) {
    if (!params.contains(key)) return std::nullopt;
    if (auto* v = params.if_contains(key); v->is_int64() && v->as_int64() == 0) {
        p.integer(key, 0, 0, 0);  // consumed, so finish() does not call it unknown
        return std::nullopt;
    }
    return p.integer(key, 0, min, max);
}

CpuSettings read_cpu(const JobDef& job, ConfigReader& p) {
    CpuSettings s;
    s.max_prime = static_cast<std::uint64_t>(p.integer("max_prime", 20000, 3, kMaxPrime));
    const std::int64_t default_threads = std::string(job.id) == "cpu-1t" ? 1 : online_cpus();
    s.threads = static_cast<unsigned>(p.integer("threads", default_threads, 1, 1024));
    s.duration_s = p.integer("duration_s", 10, 1, 86400);
    return s;
}

MemorySettings read_memory(const JobDef& job, ConfigReader& p, const std::string& where) {
    MemorySettings s;
    s.write = std::string(job.id) == "mem-write";
    const auto block_kib = p.integer("block_size_kib", 1024, 1, kMaxBlockKib);
    if ((block_kib & (block_kib - 1)) != 0)
        throw ConfigError(where + ".block_size_kib: " + std::to_string(block_kib) + " is not a power of two (sysbench requires one)");
    s.block_bytes = static_cast<std::uint64_t>(block_kib) * 1024;
    s.total_bytes = static_cast<std::uint64_t>(p.integer("total_mib", 10240, 1, 1073741824)) << 20;
    s.threads = static_cast<unsigned>(p.integer("threads", 1, 1, 1024));
    s.duration_s = p.integer("duration_s", 10, 1, 86400);
    const std::string scope = p.string("scope", "global");
    if (scope != "global" && scope != "local")
        throw ConfigError(where + ".scope: \"" + scope + "\" is neither \"global\" nor \"local\"");
    s.shared_buffer = scope == "global";
    if (s.total_bytes / s.block_bytes / s.threads == 0)
        throw ConfigError(where + ".total_mib: " + std::to_string(s.total_bytes >> 20) + " MiB is less than one block of " +
                          std::to_string(block_kib) + " KiB per thread");
    return s;
}

CryptoSettings read_crypto(const JobDef& job, ConfigReader& p, const std::string& where) {
    CryptoSettings s;
    s.sha256 = std::string(job.id) == "sha256";
    s.block_bytes = static_cast<std::uint64_t>(p.integer("block_bytes", 16384, 16, kMaxCryptoBlock));
    if (!s.sha256 && s.block_bytes % 16 != 0)
        throw ConfigError(where + ".block_bytes: " + std::to_string(s.block_bytes) +
                          " is not a multiple of the AES block (16 bytes)");
    s.duration_s = p.integer("duration_s", 3, 1, 86400);
    return s;
}

SevenZipSettings read_sevenzip(ConfigReader& p, const boost::json::object& params) {
    SevenZipSettings s;
    s.binary = p.string("binary", "");
    s.iterations = optional_integer(p, params, "iterations", 1, 1000);
    s.threads = optional_integer(p, params, "threads", 1, 1024);
    s.dictionary_log = optional_integer(p, params, "dictionary_log", 18, 30);
    s.timeout_s = p.integer("timeout_s", 900, 1, 86400);
    s.box = p.string("box", "");
    return s;
}

}  // namespace

std::span<const JobDef> all_jobs() { return kJobs; }

const JobDef& find_job(const std::string& id) {
    for (const auto& j : kJobs)
        if (id == j.id) return j;
    std::string known;
    for (const auto& j : kJobs) known += (known.empty() ? "" : ", ") + std::string(j.id);
    throw Error(STAND_E_NOT_FOUND, "sysprobe: no job '" + id + "' (jobs: " + known + ")");
}

boost::json::value params_schema(const JobDef& job) {
    switch (job.kind) {
        case JobKind::cpu: return boost::json::parse(cpu_schema(job));
        case JobKind::memory: return boost::json::parse(memory_schema());
        case JobKind::crypto: return boost::json::parse(crypto_schema());
        case JobKind::sevenzip: return boost::json::parse(sevenzip_schema());
    }
    return boost::json::object{};
}

JobSettings read_settings(const JobDef& job, const boost::json::object& params) {
    const std::string where = "sysprobe: " + std::string(job.id) + ": params";
    ConfigReader p(params, where);
    JobSettings settings;
    switch (job.kind) {
        case JobKind::cpu: settings = read_cpu(job, p); break;
        case JobKind::memory: settings = read_memory(job, p, where); break;
        case JobKind::crypto: settings = read_crypto(job, p, where); break;
        case JobKind::sevenzip: settings = read_sevenzip(p, params); break;
    }
    p.finish();
    return settings;
}

}  // namespace stand_sysprobe
