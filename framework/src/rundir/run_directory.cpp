#include "rundir/run_directory.hpp"

#include "rundir/run_files.hpp"
#include "text/finite_json.hpp"
#include "text/secrets.hpp"
#include "text/text_file.hpp"
#include "text/user_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace stand::rundir {
namespace {

// The largest file stand reads back from a run directory (a repetition with
// its histograms is under 1 MiB).
constexpr std::uintmax_t kMaxRunFileBytes = 64u << 20;

// nullopt when there is no such file; a FIFO, a device or a link to one, a
// file too large or not JSON is a text::UserError naming it.
std::optional<boost::json::object> read_object(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return std::nullopt;
    const std::string text = RunDirectory::read_file(file);
    boost::system::error_code parse_ec;
    auto v = boost::json::parse(text, parse_ec);
    if (parse_ec || !v.is_object())
        throw text::UserError(file.string() + ": not a JSON object" + (parse_ec ? " (" + parse_ec.message() + ")" : ""));
    return std::move(v.as_object());
}

std::string joined(const std::vector<std::string>& problems) {
    std::string out;
    for (const auto& p : problems) out += (out.empty() ? "" : "; ") + p;
    return out;
}

// A repetition's file read back must be what the writer writes.
boost::json::object checked_rep(boost::json::object rep, const std::filesystem::path& file) {
    if (auto problems = rep_problems(rep); !problems.empty())
        throw text::UserError(file.string() + ": not a repetition of schema version " +
                                 std::to_string(kRepSchemaVersion) + " (docs/run-files.md): " + joined(problems));
    return rep;
}

// Written whole then renamed, so that a reader never sees half a file; on
// any failure (a read-only or full disk) no temporary file is left behind.
void write_file(const std::filesystem::path& file, const std::string& text, mode_t mode) {
    auto tmp = file;
    tmp += ".tmp" + std::to_string(::getpid());
    const auto failed = [&](int err) {
        ::unlink(tmp.c_str());
        return text::TextFileError("cannot write " + file.string() + ": " + std::strerror(err));
    };
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) throw text::TextFileError("cannot write " + file.string() + ": " + std::strerror(errno));
    ::fchmod(fd, mode);  // whatever the umask
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            ::close(fd);
            throw failed(err);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) throw failed(errno);
    if (::rename(tmp.c_str(), file.c_str()) != 0) throw failed(errno);
}

// The device and inode of what `p` names (links followed); nullopt when nothing is there.
std::optional<std::pair<dev_t, ino_t>> file_id(const std::filesystem::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return std::nullopt;
    return std::pair{st.st_dev, st.st_ino};
}

// Whether a file in `dir` (not below it) is `id`.
bool listed_in(const std::filesystem::path& dir, const std::pair<dev_t, ino_t>& id) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (file_id(it->path()) == id) return true;
    return false;
}

std::string directory_name_of(const std::string& scenario_name) {
    constexpr std::size_t kMaxName = 64;
    std::string out = scenario_name.substr(0, kMaxName);
    for (char& c : out) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                           c == '-' || c == '.';
        if (!plain) c = '_';
    }
    if (out.empty() || out.front() == '.') out.insert(out.begin(), '_');
    return out;
}

}  // namespace

RunDirectory::RunDirectory(std::filesystem::path root) : root_(std::move(root)) {}

void RunDirectory::create_layout() const {
    for (const char* sub : {"reps", "samples", "hdr", "logs"}) {
        std::error_code ec;
        std::filesystem::create_directories(root_ / sub, ec);
        if (ec) throw text::UserError("cannot create " + (root_ / sub).string() + ": " + ec.message());
    }
}

std::filesystem::path RunDirectory::fresh_path(const std::filesystem::path& parent, const std::string& scenario_name) {
    const std::string name = directory_name_of(scenario_name);
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
    auto path = parent / (name + "-" + stamp);
    for (int i = 2; std::filesystem::exists(path); ++i) path = parent / (name + "-" + stamp + "-" + std::to_string(i));
    return path;
}

std::string RunDirectory::read_file(const std::filesystem::path& file) {
    return text::read_input_file(file, kMaxRunFileBytes);
}

void RunDirectory::write_atomically(const std::filesystem::path& file, const std::string& text) {
    write_file(file, text::secrets().scrub(text), 0644);
}

void RunDirectory::write_run_info(const boost::json::object& info) const {
    write_atomically(root_ / "run.json", text::finite_json_text(text::secrets().scrub_json(info)) + "\n");
}

void RunDirectory::write_secrets(const boost::json::object& secrets) const {
    write_file(root_ / "secrets.json", boost::json::serialize(secrets) + "\n", 0600);
}

std::optional<boost::json::object> RunDirectory::read_secrets() const { return read_object(root_ / "secrets.json"); }

std::optional<boost::json::object> RunDirectory::read_run_info() const { return read_object(root_ / "run.json"); }

void RunDirectory::write_rep(const std::string& key, const boost::json::object& rep) const {
    boost::json::object doc = rep;
    doc[rep_key::kSchemaVersion] = kRepSchemaVersion;
    if (auto problems = rep_problems(doc); !problems.empty())
        throw std::logic_error("internal error: reps/" + key + ".json would break its schema (docs/run-files.md): " +
                               joined(problems));
    write_atomically(root_ / "reps" / (key + ".json"), text::finite_json_text(text::secrets().scrub_json(doc)) + "\n");
}

std::optional<boost::json::object> RunDirectory::read_rep(const std::string& key) const {
    const auto file = root_ / "reps" / (key + ".json");
    auto rep = read_object(file);
    if (!rep) return rep;
    return checked_rep(std::move(*rep), file);
}

std::optional<boost::json::object> RunDirectory::read_results() const {
    const auto file = root_ / "results.json";
    auto results = read_object(file);
    if (!results) return results;
    if (auto problems = results_problems(*results); !problems.empty())
        throw text::UserError(file.string() + ": not results of schema version " + std::to_string(kResultsSchemaVersion) +
                              " (docs/run-files.md): " + joined(problems));
    return results;
}

std::vector<boost::json::object> RunDirectory::read_all_reps() const {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (!std::filesystem::is_directory(root_ / "reps", ec)) return {};
    for (const auto& e : std::filesystem::directory_iterator(root_ / "reps"))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<boost::json::object> reps;
    for (const auto& f : files)
        if (auto r = read_object(f)) reps.push_back(checked_rep(std::move(*r), f));
    return reps;
}

bool RunDirectory::holds(const std::filesystem::path& file) const {
    const auto id = file_id(file), root = file_id(root_);
    if (!id || !root) return false;
    std::error_code ec;
    const auto real = std::filesystem::canonical(file, ec);
    for (auto dir = real.parent_path(); !ec && !dir.empty(); dir = dir.parent_path()) {
        if (file_id(dir) == root) return true;
        if (dir == dir.root_path()) break;
    }
    return listed_in(root_, *id) || listed_in(root_ / "reps", *id);
}

void RunDirectory::refuse_as_output(const std::string& option, const std::filesystem::path& file) const {
    if (holds(file))
        throw text::UserError(option + " " + file.string() + ": a file of the run " + root_.string() +
                              "; write it elsewhere");
}

std::filesystem::path RunDirectory::samples_file(const std::string& key) const {
    return root_ / "samples" / (key + ".csv");
}

std::filesystem::path RunDirectory::hdr_log_file(const std::string& key, const std::string& step) const {
    return root_ / "hdr" / (key + "." + step + ".hlog");
}

std::filesystem::path RunDirectory::logs_dir() const { return root_ / "logs"; }

std::filesystem::path RunDirectory::plugin_data_dir(const std::filesystem::path& run_dir, const std::string& plugin) {
    return run_dir / "data" / plugin;
}

std::filesystem::path RunDirectory::set_aside_data(const std::string& plugin, const std::string& name) const {
    const auto from = plugin_data_dir(root_, plugin);
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(from, ec))) return {};
    const auto left = root_ / "data-left";
    std::filesystem::create_directories(left, ec);
    auto to = left / name;
    for (int n = 2; std::filesystem::exists(std::filesystem::symlink_status(to, ec)); ++n)
        to = left / (name + "." + std::to_string(n));
    std::filesystem::rename(from, to, ec);
    if (ec) throw text::UserError("cannot set aside " + from.string() + " as " + to.string() + ": " + ec.message());
    return to;
}

}  // namespace stand::rundir
