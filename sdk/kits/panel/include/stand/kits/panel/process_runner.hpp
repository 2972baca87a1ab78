// Runs a panel's declared processes (panel_process.hpp) through the host's
// stand.process/1: in order on start, each one waited for when it says how it
// is ready, one-shot steps run to their end; in reverse on stop; only those
// that restart with the panel on restart(). A process that dies is named,
// with its exit status and the end of its log, by every call that finds it;
// so is one the call was still waiting for when the host cancelled it (the
// step's timeout, or Ctrl-C, came before the process's own ready or step
// timeout): a service not ready yet, with what its ready check last found,
// or a step that had not finished (Error(STAND_E_CANCELLED)).
//
// Threads: the host calls an instance from one thread at a time; so do these.
#pragma once

#include <stand/kits/panel/panel_process.hpp>
#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stand_panel_kit {

class ProcessRunner {
public:
    // `panel` starts every message; `data_dir` (the panel's) holds the
    // processes' data folders and the record of the first-start steps that
    // ran; `plugin_dir` (the host's data dir of the plugin, which contains
    // it) holds each process's output, <name>.log (mode 0600). `expand`
    // replaces the adapter's ${...} variables.
    ProcessRunner(const stand::cpp::Host& host, std::string panel, std::filesystem::path data_dir,
                  std::filesystem::path plugin_dir, std::function<std::string(const std::string&)> expand);
    ~ProcessRunner();

    // The processes, in start order. Names must be unique and non-empty, and
    // every argv non-empty: Error(STAND_E_INVALID_ARGUMENT) otherwise.
    void set_processes(std::vector<PanelProcess> processes);
    const std::vector<PanelProcess>& processes() const noexcept { return processes_; }

    // What install() checks: every program exists and is executable, every
    // user exists, every working directory outside the data dir exists.
    // Error(STAND_E_NOT_FOUND) naming the process, what is missing and `hint`.
    void check_installed(const std::string& hint) const;

    // Every autostart entry in order: its data folders made, a step run to
    // its end (a first-start step only once per data dir), a service spawned
    // and waited for. A failure stops what this call started and names the
    // process. Error(STAND_E_BAD_STATE) when something already runs.
    void start_all();
    // One entry whose autostart is false (a node once enrolled); nothing when it runs.
    void start_process(const std::string& name);
    // Every running process, in reverse order, each with its stop signal,
    // then SIGKILL after its timeout. Returns whether any was running.
    bool stop_all();
    // The panel's restart: the running processes that restart are stopped
    // in reverse, then every entry that restarts is run again in order
    // (first-start steps skipped); those that persist keep running, and a
    // dead one among them is an error naming it.
    void restart();

    bool running() const noexcept { return !running_.empty(); }
    bool running(const std::string& name) const;
    // The first running process that has ended: "the process 'NAME' exited
    // with status 1 (its log, PATH, ends: ...)"; nullopt while all run.
    std::optional<std::string> death();
    // Throws Error(STAND_E_BAD_STATE) with death() when a process died.
    void require_alive();

    // Facts: each program (argv[0] found on PATH, every absolute argument
    // that is a file), its size, never following a link; the bytes in
    // each process's data folders.
    boost::json::array artifacts() const;
    boost::json::object data_bytes() const;
    std::filesystem::path log_file(const std::string& name) const;

private:
    struct Running;
    const PanelProcess& find(const std::string& name) const;
    void start_entry(const PanelProcess& p);
    void run_step(const PanelProcess& p);
    void spawn(const PanelProcess& p);
    void wait_ready(const PanelProcess& p, Running& r);
    std::string not_ready(const PanelProcess& p);
    void stop_one(Running& r);
    void make_data_folders(const PanelProcess& p, bool empty_them) const;
    boost::json::object spawn_spec(const PanelProcess& p) const;
    std::string ended_text(Running& r) const;
    std::string log_end(const std::string& name) const;  // "its log PATH ends: ..." (or "is empty")
    // Error(STAND_E_CANCELLED) "the process 'NAME' STATE when the call was
    // cancelled, N s after it was started (WHY); its log ... ends: ...".
    [[noreturn]] void cancelled(const PanelProcess& p, const std::string& state, std::uint64_t since_ns,
                                const std::string& why) const;
    std::filesystem::path step_record(const PanelProcess& p) const;
    [[noreturn]] void fail(stand_result code, const PanelProcess& p, const std::string& what) const;

    stand::cpp::Host host_;
    std::string panel_;
    std::filesystem::path data_dir_, plugin_dir_;
    std::function<std::string(const std::string&)> expand_;
    std::vector<PanelProcess> processes_;
    std::vector<std::unique_ptr<Running>> running_;  // in start order
};

}  // namespace stand_panel_kit
