// A load step sent from the controller (the machine `stand run --host` was
// typed on) to the system under test on a fleet host (a load step's
// "from": "controller"): the box, its sampler and the plugin stay on the
// host as they run locally, and the load comes from outside the host, as a
// real client's does, so the generator never shares the box's CPUs.
//
// The host's stand (run with --fleet-host) asks over its ssh channel: one
// line on its output (kControllerLoadRequest, then JSON: the `stand load`
// options, the URLs, the rate) and the controller answers on its stdin
// with one JSON line: its own `stand load` result and histograms, or why
// there are none. The controller loads only the host's own address (the
// one it reaches it at over ssh) or, where the scenario's allow_remote
// says so, another non-loopback one; a loopback URL is the host's own
// loopback, which the controller cannot reach, and is refused with what to
// change.
#pragma once

#include "fleet/ssh_target.hpp"
#include "fleetrun/generator_load.hpp"
#include "posix/line_reader.hpp"
#include "posix/unique_fd.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::fleetrun {

inline constexpr std::string_view kControllerLoadRequest = "@stand-controller-load ";

struct ControllerLoadRequest {
    std::vector<std::string> options;  // `stand load` options: no URL, --rate, --json or --histogram-out
    std::vector<std::string> urls;
    double rate = 0;            // the open model's; 0: the closed model
    bool allow_remote = false;  // the scenario's: a target besides the host's own address
};

// The host side. Construction takes the process's stdin (fd 0) for itself
// and puts /dev/null in its place, so that no child of the run (a plugin
// worker, a probe's program) can read the controller's answers. One per
// process, made on the main thread before the run starts.
class ControllerChannel {
public:
    ControllerChannel();
    ControllerChannel(const ControllerChannel&) = delete;
    ControllerChannel& operator=(const ControllerChannel&) = delete;

    // Sends the request (on stdout, one write) and waits up to
    // `answer_within` for the answer: the controller's load as a
    // generator's outcome named "controller". Called from the step's
    // thread, one request at a time. Never throws for what the controller
    // or the connection does: that is the outcome's `problem`. An answer
    // saying the controller was interrupted (Ctrl-C there) raises SIGINT in
    // this process, so the run stops here at once as it does there.
    GeneratorOutcome load(const ControllerLoadRequest& request, std::chrono::seconds answer_within);

private:
    std::optional<std::string> read_line(std::chrono::seconds within);

    posix::UniqueFd in_;
    posix::LineReader reader_{in_.get()};
};

// The controller side: the answer to one line of a host's output, or
// nullopt when the line is not a request. Runs the load here with
// `stand_binary` (SIGINT reaches it once `interrupted` is set, and what it
// measured until then is the answer). Never throws: a refusal or a failure
// is the answer's "problem".
std::optional<std::string> answer_controller_load(const std::string& line, const fleet::SshTarget& host,
                                                  const std::atomic<bool>& interrupted,
                                                  const std::filesystem::path& stand_binary = "/proc/self/exe");

}  // namespace stand::fleetrun
