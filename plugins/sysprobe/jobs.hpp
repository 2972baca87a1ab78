// Running one prepared job: each returns the probe's output contract
//   {"metrics": {...numbers...}, "facts": {...}, "notes": [...]}
// and throws stand::cpp::Error naming the job (STAND_E_CANCELLED when the
// host cancelled it).
#pragma once

#include <stand/cpp/error.hpp>
#include <stand/cpp/host.hpp>

#include <boost/json.hpp>

#include <string>

#include <stand/kits/probe/probe_result.hpp>
#include "job_catalogue.hpp"
#include "timed_run.hpp"

namespace stand_sysprobe {

// No latency histogram: these jobs time events in bulk, not one by one.
using JobOutput = stand_probe_kit::ProbeResult;

JobOutput run_cpu_job(const std::string& job_id, const CpuSettings& settings, const Control& control);
JobOutput run_memory_job(const std::string& job_id, const MemorySettings& settings, const Control& control);
JobOutput run_crypto_job(const std::string& job_id, const CryptoSettings& settings, const Control& control);
JobOutput run_sevenzip_job(const std::string& job_id, const SevenZipSettings& settings, const stand::cpp::Host& host,
                           const Control& control);

// The note run() returns when no 7z binary is on PATH.
inline constexpr const char* kSevenZipMissingNote =
    "7z not found on PATH (apt-get install p7zip-full); the archiver row is empty";

inline void throw_if_cancelled(const std::string& job_id, const TimedRunResult& r) {
    if (r.cancelled) throw stand::cpp::Error(STAND_E_CANCELLED, "sysprobe: " + job_id + " cancelled");
}

}  // namespace stand_sysprobe
