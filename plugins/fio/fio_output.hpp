// fio probe: reading what `fio --output-format=json+` printed. No host types
// here, so the unit tests include it directly.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <stand/kits/probe/disk_metrics.hpp>

namespace stand_fio {

// One direction ("read" or "write") of jobs[0] (with --group_reporting the
// only job).
struct FioSide {
    std::uint64_t io_bytes = 0;
    std::uint64_t total_ios = 0;
    std::uint64_t runtime_ms = 0;
    double lat_mean_ns = 0;  // lat_ns.mean: submission to completion
    // clat_ns.bins of json+: [value_ns, count], ascending by value.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> clat_bins;
};

struct FioReport {
    std::string version;   // "fio-3.33"
    std::string job_name;  // jobs[0].jobname
    std::int64_t error = 0;  // jobs[0].error, an errno
    double usr_cpu_pct = 0;  // of job_runtime
    double sys_cpu_pct = 0;
    std::uint64_t job_runtime_ms = 0;
    FioSide read;
    FioSide write;
    std::vector<std::string> other_lines;  // non-blank lines outside the JSON
};

class FioOutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Finds fio's JSON document in `output` (stdout and stderr together): the
// first '{' at the start of a line from which a whole JSON object with a
// "jobs" array parses. Lines before and after it ("note: ...", "fio: ...")
// are kept in other_lines. Throws FioOutputError when there is none or a
// field has the wrong type.
FioReport parse_fio_output(std::string_view output);

// parse_fio_output() for a finished run, with the errors a user can act on:
// no JSON, or jobs[0].error set, is a FioOutputError naming `exit_code` and
// the first lines fio printed besides the JSON.
FioReport read_fio_run(std::string_view output, int exit_code);

// The probe metrics of one side, by the formulas every disk probe uses (the
// probe kit's), but cpu_pct: usr + sys, fio's own share of the job's runtime.
using FioMetrics = stand_probe_kit::DiskMetrics;

// Throws FioOutputError when the side did no I/O.
FioMetrics metrics_of(const FioReport& report, bool write);

// The first `n` of `lines`, joined with " | " (for error messages).
std::string first_lines(const std::vector<std::string>& lines, std::size_t n);

}  // namespace stand_fio
