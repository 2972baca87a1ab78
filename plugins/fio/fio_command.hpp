// fio probe: the job catalogue (the disk probe's CrystalDiskMark profiles)
// and the exact fio command lines. No host types, so the unit tests check
// the argv directly.
#pragma once

#include <stand/kits/probe/cdm_jobs.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace stand_fio {

using JobDef = stand_probe_kit::CdmJob;

// The eight jobs, in the disk probe's order.
const std::vector<JobDef>& job_catalogue();
// nullptr when `id` is not a job.
const JobDef* find_job(const std::string& id);

// One measured run of fio.
struct FioJobSpec {
    std::string name;  // the job id, fio's --name
    std::string path;  // the test file
    std::uint64_t size_bytes = 0;
    bool random = false;
    bool write = false;
    std::uint32_t block_size = 4096;
    std::uint32_t queue_depth = 1;
    std::uint32_t jobs = 1;
    std::uint32_t duration_s = 5;
    std::string engine = "io_uring";  // or "libaio"
};

// fio's --rw for the spec: read, write, randread or randwrite.
std::string rw_of(const FioJobSpec& spec);

// The measured run: O_DIRECT, time-based, no ramp, fresh random offsets,
// one group report in json+ (full completion-latency bins).
std::vector<std::string> run_argv(const FioJobSpec& spec);

// Lays the test file out once, in full: 1 MiB writes of fio's random data,
// no fallocate, so every block is written before any read (no holes, no
// unwritten extents).
std::vector<std::string> layout_argv(const FioJobSpec& spec);

// argv joined with spaces (arguments are shell-safe by construction, except
// paths with spaces, which are quoted).
std::string command_line(const std::vector<std::string>& argv);

}  // namespace stand_fio
