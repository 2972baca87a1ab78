// fio probe: job catalogue and fio command lines.
#include "fio_command.hpp"

#include <iterator>

namespace stand_fio {

const std::vector<JobDef>& job_catalogue() {
    static const std::vector<JobDef> jobs(std::begin(stand_probe_kit::kCdmJobs), std::end(stand_probe_kit::kCdmJobs));
    return jobs;
}

const JobDef* find_job(const std::string& id) { return stand_probe_kit::find_cdm_job(id); }

std::string rw_of(const FioJobSpec& spec) {
    return std::string(spec.random ? "rand" : "") + (spec.write ? "write" : "read");
}

std::vector<std::string> run_argv(const FioJobSpec& spec) {
    return {"fio",
            "--name=" + spec.name,
            "--filename=" + spec.path,
            "--size=" + std::to_string(spec.size_bytes),
            "--rw=" + rw_of(spec),
            "--bs=" + std::to_string(spec.block_size),
            "--iodepth=" + std::to_string(spec.queue_depth),
            "--numjobs=" + std::to_string(spec.jobs),
            "--ioengine=" + spec.engine,
            "--direct=1",
            "--time_based",
            "--runtime=" + std::to_string(spec.duration_s),
            "--ramp_time=0",
            "--randrepeat=0",
            "--group_reporting",
            "--output-format=json+"};
}

std::vector<std::string> layout_argv(const FioJobSpec& spec) {
    return {"fio",
            "--name=layout-" + spec.name,
            "--filename=" + spec.path,
            "--size=" + std::to_string(spec.size_bytes),
            "--rw=read",
            "--bs=1M",
            "--direct=1",
            "--fallocate=none",
            "--create_only=1",
            "--output-format=json"};
}

std::string command_line(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) {
        if (!out.empty()) out += ' ';
        if (a.find_first_of(" \t'\"") == std::string::npos) {
            out += a;
            continue;
        }
        out += '\'';
        for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

}  // namespace stand_fio
