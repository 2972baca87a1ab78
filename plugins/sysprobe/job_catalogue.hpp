// The probe's jobs, their params schemas, and reading a job's params into
// its settings. Errors name the plugin, the job and the param.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

namespace stand_sysprobe {

enum class JobKind { cpu, memory, crypto, sevenzip };

struct JobDef {
    const char* id;
    JobKind kind;
    const char* description;
};

std::span<const JobDef> all_jobs();
// Throws stand::cpp::Error(STAND_E_NOT_FOUND) listing the known jobs.
const JobDef& find_job(const std::string& id);
boost::json::value params_schema(const JobDef& job);

struct CpuSettings {
    std::uint64_t max_prime = 20000;
    unsigned threads = 1;
    std::int64_t duration_s = 10;
};

struct MemorySettings {
    bool write = false;
    std::uint64_t block_bytes = 1 << 20;
    std::uint64_t total_bytes = 10ull << 30;
    unsigned threads = 1;
    std::int64_t duration_s = 10;
    bool shared_buffer = true;  // sysbench --memory-scope=global (its default)
};

struct CryptoSettings {
    bool sha256 = false;  // else AES-256-CBC
    std::uint64_t block_bytes = 16384;
    std::int64_t duration_s = 3;
};

struct SevenZipSettings {
    std::string binary;  // empty: 7z, 7za or 7zz on PATH
    std::optional<std::int64_t> iterations, threads, dictionary_log;
    std::int64_t timeout_s = 900;
    std::string box;  // empty: in no box
};

using JobSettings = std::variant<CpuSettings, MemorySettings, CryptoSettings, SevenZipSettings>;

// Throws stand::cpp::Error(STAND_E_INVALID_ARGUMENT) "sysprobe: <job>: params.<key>: ...".
JobSettings read_settings(const JobDef& job, const boost::json::object& params);

}  // namespace stand_sysprobe
