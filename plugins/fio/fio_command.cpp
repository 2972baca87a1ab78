// fio probe: job catalogue and fio command lines.
#include "fio_command.hpp"

namespace stand_fio {

namespace {
constexpr std::uint32_t kMiB = 1u << 20;
}

const std::vector<JobDef>& job_catalogue() {
    static const std::vector<JobDef> jobs{
        {"seq1m-q8t1-read", "SEQ1M Q8T1 read", false, false, kMiB, 8},
        {"seq1m-q8t1-write", "SEQ1M Q8T1 write", false, true, kMiB, 8},
        {"seq1m-q1t1-read", "SEQ1M Q1T1 read", false, false, kMiB, 1},
        {"seq1m-q1t1-write", "SEQ1M Q1T1 write", false, true, kMiB, 1},
        {"rnd4k-q32t1-read", "RND4K Q32T1 read", true, false, 4096, 32},
        {"rnd4k-q32t1-write", "RND4K Q32T1 write", true, true, 4096, 32},
        {"rnd4k-q1t1-read", "RND4K Q1T1 read", true, false, 4096, 1},
        {"rnd4k-q1t1-write", "RND4K Q1T1 write", true, true, 4096, 1},
    };
    return jobs;
}

const JobDef* find_job(const std::string& id) {
    for (const auto& j : job_catalogue())
        if (id == j.id) return &j;
    return nullptr;
}

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
