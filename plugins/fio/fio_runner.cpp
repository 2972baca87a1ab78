// fio probe: running fio through the host, and the test file it lays out
// (fio_runner.hpp).
#include "fio_runner.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fio_output.hpp"

namespace stand_fio {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;

// How long run() waits for fio between two looks at cancellation and
// progress: the probe kit asks a run for at least one look every 100 ms.
constexpr int kPollMs = 100;

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

FioExit FioRunner::run(const std::string& job_id, const std::vector<std::string>& argv, const std::string& out_name,
                       std::chrono::seconds expected, const char* what) {
    const fs::path out = fs::path(host_.data_dir()) / out_name;
    std::error_code ec;
    fs::create_directories(out.parent_path(), ec);
    fs::remove(out, ec);  // the process service appends
    json::array args;
    for (const auto& a : argv) args.emplace_back(a);
    json::object spec{{"argv", std::move(args)}, {"output", out.string()}, {"new_process_group", true}};
    auto process = spawn(job_id, spec);

    const auto t0 = std::chrono::steady_clock::now();
    const auto limit = expected + std::chrono::seconds(120);
    stand_process_status status{};
    while (!process->wait(kPollMs, status)) {
        if (host_.cancelled()) throw Error(STAND_E_CANCELLED, "fio: " + job_id + ": cancelled while " + what);
        const auto elapsed = std::chrono::steady_clock::now() - t0;
        if (expected.count() > 0) {
            host_.report_progress(std::min(1.0, std::chrono::duration<double>(elapsed) / expected), what);
            if (elapsed > limit)  // ~Process kills it
                throw Error(STAND_E_TIMEOUT, "fio: " + job_id + ": fio still running " +
                                                 std::to_string(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count()) +
                                                 " s into a " + std::to_string(expected.count()) + " s run; killed");
        } else {
            host_.report_progress(-1, what);
        }
    }
    FioExit done;
    done.output = read_file(out);
    if (status.state == STAND_PROCESS_SIGNALED)
        throw Error(STAND_E_IO, "fio: " + job_id + ": fio was killed by signal " + std::to_string(status.signal) +
                                    " while " + what + "; output in " + out.string());
    done.exit_code = status.exit_code;
    return done;
}

// In the box when the host has it; otherwise outside, with a note.
std::unique_ptr<stand::cpp::Process> FioRunner::spawn(const std::string& job_id, json::object spec) {
    box_note_.clear();
    box_used_.clear();
    try {
        if (!box_.empty()) {
            spec["box"] = box_;
            try {
                auto p = std::make_unique<stand::cpp::Process>(host_, spec);
                box_used_ = box_;
                return p;
            } catch (const Error& e) {
                if (e.code() != STAND_E_INVALID_ARGUMENT) throw;
                box_note_ = "fio ran outside the box '" + box_ + "': " + e.what();
                spec.erase("box");
            }
        }
        return std::make_unique<stand::cpp::Process>(host_, spec);
    } catch (const Error& e) {
        if (e.code() == STAND_E_NOT_FOUND)
            throw Error(STAND_E_UNSUPPORTED, kFioMissing);
        throw Error(e.code(), "fio: " + job_id + ": starting fio: " + e.what());
    }
}

void lay_out(FioRunner& runner, const std::string& job_id, const FioJobSpec& spec) {
    const auto argv = layout_argv(spec);
    // 1 GiB at a slow 20 MB/s takes under a minute; no deadline but cancellation.
    const auto done = runner.run(job_id, argv, job_id + ".layout.out", std::chrono::seconds(0), "laying out the test file");
    if (done.exit_code != 0) {
        std::vector<std::string> lines;
        std::istringstream in(done.output);
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != ' ' && line != "{" && line != "}") lines.push_back(line);
        throw Error(STAND_E_IO, "fio: " + job_id + ": laying out " + spec.path + " failed, fio exited with code " +
                                    std::to_string(done.exit_code) + ": " + first_lines(lines, 5));
    }
    const int fd = ::open(spec.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(STAND_E_IO, "fio: " + job_id + ": fio did not create " + spec.path + ": " + std::strerror(errno));
    struct stat st{};
    const bool synced = ::fdatasync(fd) == 0;
    const int sync_errno = errno;
    const bool statted = ::fstat(fd, &st) == 0;
    ::close(fd);
    if (!synced) throw Error(STAND_E_IO, "fio: " + job_id + ": fdatasync(" + spec.path + "): " + std::strerror(sync_errno));
    const std::uint64_t allocated = statted ? static_cast<std::uint64_t>(st.st_blocks) * 512u : 0;
    if (!statted || static_cast<std::uint64_t>(st.st_size) != spec.size_bytes || allocated < spec.size_bytes)
        throw Error(STAND_E_IO, "fio: " + job_id + ": after fio's layout " + spec.path + " has " +
                                    std::to_string(statted ? st.st_size : 0) + " bytes, " + std::to_string(allocated) +
                                    " allocated, not the " + std::to_string(spec.size_bytes) +
                                    " written bytes reads need");
}

}  // namespace stand_fio
