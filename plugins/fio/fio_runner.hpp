// fio probe: running fio through the host's process service (stand.process/1)
// in the box config.box names, waiting for it while polling cancellation
// and reporting progress (where the host has no such box fio runs outside,
// and the result says so: box_note()); and the test file fio lays out.
#pragma once

#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "fio_command.hpp"

namespace stand_fio {

inline constexpr const char* kFioMissing = "fio: the fio binary was not found on PATH (apt-get install fio)";

// How a fio process ended and what it printed (stdout and stderr together).
struct FioExit {
    int exit_code = 0;
    std::string output;
};

class FioRunner {
public:
    FioRunner(const stand::cpp::Host& host, std::string box) : host_(host), box_(std::move(box)) {}

    // Runs `argv` with its output in the data dir's `out_name` and waits,
    // checking cancellation; `what` names the work in progress lines and
    // errors. `expected` > 0: the run's length; fio is killed 120 s after it.
    FioExit run(const std::string& job_id, const std::vector<std::string>& argv, const std::string& out_name,
                std::chrono::seconds expected, const char* what);

    // The box the last run() used, "" for none; and why not the configured one.
    const std::string& box_used() const { return box_used_; }
    const std::string& box_note() const { return box_note_; }

private:
    std::unique_ptr<stand::cpp::Process> spawn(const std::string& job_id, boost::json::object spec);

    stand::cpp::Host host_;
    std::string box_;
    std::string box_used_;
    std::string box_note_;
};

// Has fio lay out `spec`'s test file in full (layout_argv()), then checks
// that it is on disk (fdatasync) with every byte allocated: reads must hit
// written blocks. Error(STAND_E_IO) naming the job and the file otherwise.
void lay_out(FioRunner& runner, const std::string& job_id, const FioJobSpec& spec);

}  // namespace stand_fio
