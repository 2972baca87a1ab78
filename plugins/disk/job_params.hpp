// disk probe: a job's params, declared once (list_jobs() writes their
// schema from them) and read and checked in prepare(), and the engine's
// spec they make. Errors are Error(STAND_E_INVALID_ARGUMENT) naming the param.
#pragma once

#include <stand/cpp/config_spec.hpp>

#include <boost/json.hpp>

#include <string>

#include <stand/kits/probe/cdm_jobs.hpp>
#include <stand/kits/probe/disk_params.hpp>
#include "disk_engine.hpp"

namespace stand_disk {

// The disk probes' shared keys, and the disk probe's own.
const stand::cpp::ConfigSpec& params_spec();

struct JobParams {
    stand_probe_kit::DiskParams disk;
    std::string file;  // params.file; "" when the probe writes the test file
    bool direct = true;
    EngineKind engine = EngineKind::io_uring;
};

// `params` read for `job`, "size_mib": "ram" resolved from /proc/meminfo.
JobParams read_job_params(const stand_probe_kit::CdmJob& job, const boost::json::object& params);

// The test directory: params.dir, or params.file's own.
std::string test_dir(const JobParams& params);

// The run of `job` with `params` on the file at `path` with `engine`.
EngineSpec engine_spec(const stand_probe_kit::CdmJob& job, const JobParams& params, const std::string& path,
                       EngineKind engine);

}  // namespace stand_disk
