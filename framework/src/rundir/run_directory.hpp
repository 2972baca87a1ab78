// The run directory: everything a run measured, written as it goes so that
// a crash or Ctrl-C loses nothing already measured.
//
//   RUN_DIR/lock                the pid of the stand using it (run_lock.hpp)
//   RUN_DIR/run.json            what was asked: scenario path, params, plan, host, start time
//   RUN_DIR/secrets.json        mode 0600: the scenario text, plugin configs and params as given:
//                               --resume runs these, never the scenario file as it is today
//   RUN_DIR/reps/<key>.json     one repetition, rewritten after every step ("status": running|ok|failed)
//   RUN_DIR/samples/<key>.csv   the sampler's rows of that repetition
//   RUN_DIR/hdr/<key>.<step>.hlog  a load step's latency as an HdrHistogram interval log
//   RUN_DIR/logs/               plugin worker and process logs
//   RUN_DIR/data/<plugin>/      a plugin's data dir, kept across its repetitions
//   RUN_DIR/data-left/<name>/   the data dir a repetition that did not finish ok left, set aside
//   RUN_DIR/results.json, per_rep.csv, summary.md, report.html   derived (stand report)
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace stand::rundir {

class RunDirectory {
public:
    // Reads and writes files under `root`; creates nothing (a reader such as
    // `stand compare` leaves a directory as it found it).
    explicit RunDirectory(std::filesystem::path root);
    const std::filesystem::path& root() const noexcept { return root_; }
    // reps/, samples/, hdr/ and logs/, for a run about to write them.
    void create_layout() const;

    // A fresh directory under `parent` named after the scenario and the time:
    // the name's first 64 characters, each outside [A-Za-z0-9_.-] (and a
    // leading '.') as '_', so any scenario name stays one directory inside
    // `parent`.
    static std::filesystem::path fresh_path(const std::filesystem::path& parent, const std::string& scenario_name);

    void write_run_info(const boost::json::object& info) const;
    std::optional<boost::json::object> read_run_info() const;
    // The one file written as given, secrets included: mode 0600.
    void write_secrets(const boost::json::object& secrets) const;
    std::optional<boost::json::object> read_secrets() const;

    // Atomic (write + rename), so a reader never sees half a file. Adds
    // schema_version; a document that breaks the schema (run_files.hpp) is
    // an internal error (std::logic_error), never written.
    void write_rep(const std::string& key, const boost::json::object& rep) const;
    // text::UserError naming the file when it breaks the schema, is not a
    // regular file (rundir reads are bounded: text::read_input_file) or is not JSON.
    std::optional<boost::json::object> read_rep(const std::string& key) const;
    std::vector<boost::json::object> read_all_reps() const;  // sorted by key
    // results.json (what `stand report` derived); nullopt when absent,
    // text::UserError naming it when it breaks its schema or is not JSON.
    std::optional<boost::json::object> read_results() const;

    // Whether `file` (its links followed) is a file of this run: one inside
    // the directory, or another name (a hard link) of a file stand wrote at
    // its top or in reps/.
    bool holds(const std::filesystem::path& file) const;
    // A command that reads a run writes none of its files (`report RUN
    // --bench-json bmf --output RUN/results.json`): text::UserError naming
    // `option` and `file` when this run holds it.
    void refuse_as_output(const std::string& option, const std::filesystem::path& file) const;

    std::filesystem::path samples_file(const std::string& key) const;
    // The interval log of load step `step` in repetition `key` (load/hdr_interval_log.hpp).
    std::filesystem::path hdr_log_file(const std::string& key, const std::string& step) const;
    std::filesystem::path logs_dir() const;

    // The data dir of plugin `plugin` (its label) in the run at `run_dir`:
    // data/<plugin>, what stand.files data_dir() gives it.
    static std::filesystem::path plugin_data_dir(const std::filesystem::path& run_dir, const std::string& plugin);
    // Moves data/<plugin> to data-left/<name> (name.2, .3, ... when taken), so
    // the plugin's next repetition starts with no data dir, as its first did.
    // Returns where it went; empty when there was none. text::UserError
    // naming both paths when it cannot be moved.
    std::filesystem::path set_aside_data(const std::string& plugin, const std::string& name) const;

    // A file of a run directory read back (samples, fleet.json), bounded as
    // every read from it is: text::read_input_file with a 64 MiB cap.
    static std::string read_file(const std::filesystem::path& file);

    // Every file of the run directory but secrets.json is written through
    // here: the text with every known secret scrubbed (text/secrets.hpp).
    static void write_atomically(const std::filesystem::path& file, const std::string& text);

private:
    std::filesystem::path root_;
};

}  // namespace stand::rundir
