// 7z-bench: `7z b` through the host's stand.process/1, its "Tot:" rating.
// No 7z on PATH is not an error: the battery goes on with an empty row.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stand/cpp/executable.hpp>

#include "jobs.hpp"
#include "machine_facts.hpp"
#include "sevenzip_output.hpp"

namespace stand_sysprobe {
namespace {

namespace fs = std::filesystem;
using stand::cpp::Error;

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string tail_of(const std::string& text, std::size_t n) {
    return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

std::vector<std::string> command_of(const std::string& binary, const SevenZipSettings& s) {
    std::vector<std::string> argv{binary, "b"};
    if (s.iterations) argv.push_back(std::to_string(*s.iterations));
    if (s.threads) argv.push_back("-mmt" + std::to_string(*s.threads));
    if (s.dictionary_log) argv.push_back("-md" + std::to_string(*s.dictionary_log));
    return argv;
}

std::string joined(const std::vector<std::string>& argv, std::size_t from) {
    std::string text;
    for (std::size_t i = from; i < argv.size(); ++i) text += (text.empty() ? "" : " ") + argv[i];
    return text;
}

// Up to 100 ms; false when 7z still runs or the host cancelled the wait
// (stand.process/1 wait() answers STAND_E_CANCELLED then).
bool wait_unless_cancelled(stand::cpp::Process& process, stand_process_status& status) {
    try {
        return process.wait(100, status);
    } catch (const Error& e) {
        if (e.code() != STAND_E_CANCELLED) throw;
        return false;
    }
}

}  // namespace

JobOutput run_sevenzip_job(const std::string& job_id, const SevenZipSettings& s, const stand::cpp::Host& host,
                           const Control& control) {
    JobOutput out;
    std::string binary = s.binary;
    if (binary.empty()) {
        auto found = find_executable({"7z", "7za", "7zz"}, stand::cpp::search_path());
        if (!found) {
            out.facts = {{"tool", "7z b"}};
            out.notes.emplace_back(kSevenZipMissingNote);
            return out;
        }
        binary = *found;
    } else if (::access(binary.c_str(), X_OK) != 0) {
        throw Error(STAND_E_NOT_FOUND, "sysprobe: " + job_id + ": params.binary: " + binary + " is not an executable file");
    }

    const auto argv = command_of(binary, s);
    const fs::path output = fs::path(host.data_dir()) / ("sysprobe-7z-b." + std::to_string(::getpid()) + ".txt");
    fs::remove(output);
    boost::json::array args;
    for (const auto& a : argv) args.emplace_back(a);
    // A group of its own: release() kills 7z with whatever it started.
    boost::json::object spec{{"argv", std::move(args)},
                             {"output", output.string()},
                             {"env", {{"LC_ALL", "C"}}},
                             {"new_process_group", true}};
    if (!s.box.empty()) spec["box"] = s.box;

    const auto t0 = std::chrono::steady_clock::now();
    const auto deadline = t0 + std::chrono::seconds(s.timeout_s);
    stand_process_status status{};
    {
        stand::cpp::Process process(host, spec);  // released (killed if running) when leaving this scope
        while (!wait_unless_cancelled(process, status)) {
            if (control.cancelled && control.cancelled()) throw Error(STAND_E_CANCELLED, "sysprobe: " + job_id + " cancelled");
            if (std::chrono::steady_clock::now() > deadline)
                throw Error(STAND_E_TIMEOUT, "sysprobe: " + job_id + ": `" + joined(argv, 0) + "` did not finish in " +
                                                 std::to_string(s.timeout_s) + " s (params.timeout_s)");
            if (control.report) control.report(-1, "7z b running");
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string text = read_text(output);
    fs::remove(output);
    if (status.state != STAND_PROCESS_EXITED || status.exit_code != 0)
        throw Error(STAND_E_IO, "sysprobe: " + job_id + ": `" + joined(argv, 0) + "` " +
                                    (status.state == STAND_PROCESS_SIGNALED ? "was killed by signal " + std::to_string(status.signal)
                                                                            : "exited with code " + std::to_string(status.exit_code)) +
                                    ": " + tail_of(text, 400));
    SevenZipBench bench;
    try {
        bench = parse_sevenzip_bench(text);
    } catch (const std::exception& e) {
        throw Error(STAND_E_BAD_RESPONSE, "sysprobe: " + job_id + ": " + e.what() + ": " + tail_of(text, 400));
    }
    out.metrics = {{"mips", bench.total_mips},
                   {"compress_mips", bench.compress_mips},
                   {"decompress_mips", bench.decompress_mips},
                   {"usage_pct", bench.usage_pct},
                   {"ru_mips", bench.ru_mips},
                   {"seconds", seconds}};
    if (bench.benchmark_threads > 0) out.metrics["threads"] = bench.benchmark_threads;
    out.facts = {{"tool", "7z " + joined(argv, 1)},
                 {"binary", binary},
                 {"sevenzip_version", bench.version},
                 {"sevenzip_banner", bench.banner}};
    if (!bench.p7zip_version.empty()) out.facts["p7zip_version"] = bench.p7zip_version;
    return out;
}

}  // namespace stand_sysprobe
