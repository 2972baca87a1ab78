// Commands on one fleet host through the system's OpenSSH client: one
// multiplexed connection per host (ControlMaster, its socket in a private
// temporary directory), BatchMode (never a prompt: keys or an agent only),
// host keys checked against known_hosts (StrictHostKeyChecking=yes; a new
// key is accepted only with `accept_new_host_key`). Every remote argument is
// shell-quoted (fleet/shell_quote.hpp). run() and stream() may be called
// from several threads at once (each starts its own ssh client on the
// shared master connection); converse() from one thread at a time.
#pragma once

#include "fleet/ssh_target.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stand::fleet {

struct SshOptions {
    std::filesystem::path config_file;  // ssh -F FILE; empty: the user's own configuration
    bool accept_new_host_key = false;   // StrictHostKeyChecking=accept-new instead of yes
    std::chrono::seconds connect_timeout{10};
};

// The last line of a command's output: what ssh or a remote command said
// last ("Permission denied (publickey).").
std::string last_line(const std::string& text);

struct RemoteResult {
    int exit_code = -1;  // the remote command's
    std::string out, err;
};

class SshSession {
public:
    SshSession(SshTarget target, SshOptions options);
    ~SshSession();  // ends the master connection
    SshSession(const SshSession&) = delete;
    SshSession& operator=(const SshSession&) = delete;

    const SshTarget& target() const noexcept { return target_; }

    // The local argv that runs `remote_argv` on the host.
    std::vector<std::string> command(const std::vector<std::string>& remote_argv) const;

    // Runs `remote_argv` with `input` on its stdin and waits up to `timeout`
    // (then kills it). Throws FleetError naming the host when ssh itself
    // fails (exit 255: no route, refused, authentication, host key) or on
    // the timeout; a remote command's own failure is its exit code.
    RemoteResult run(const std::vector<std::string>& remote_argv, const std::string& input = {},
                     std::chrono::seconds timeout = std::chrono::seconds(120)) const;

    // The same with stdin read from the stdout of a local command
    // (`local_argv`, e.g. tar), which must succeed too.
    RemoteResult run_fed_by(const std::vector<std::string>& local_argv, const std::vector<std::string>& remote_argv,
                            std::chrono::seconds timeout) const;

    // The other way round: the stdout of `remote_argv` (e.g. tar -c) is the
    // stdin of a local command (`local_argv`, e.g. tar -x), which must
    // succeed too. Returns the remote result (its stdout went to the local
    // command, so `out` is empty).
    RemoteResult run_into(const std::vector<std::string>& remote_argv, const std::vector<std::string>& local_argv,
                          std::chrono::seconds timeout) const;

    // An exchange of lines with `remote_argv`: `exchange(write_line,
    // read_line)` is called once, with functions that send one line to its
    // stdin and read one line of its stdout. read_line throws FleetError
    // naming the host and the command when no line comes within
    // kConverseAnswerWithin (each is the answer to a line just sent) or the
    // command ended. Returns when the command ends after its stdin is closed.
    static constexpr std::chrono::milliseconds kConverseAnswerWithin{60000};
    using LineIo = std::function<void(const std::function<void(const std::string&)>& write_line,
                                      const std::function<std::string()>& read_line)>;
    int converse(const std::vector<std::string>& remote_argv, const LineIo& exchange) const;

    // Runs `remote_argv` with its stdout and stderr merged and stdin empty,
    // calling `on_line` (on this thread) for each line as it arrives, and
    // returns the remote exit code once the output ends. Throws FleetError
    // naming the host when ssh fails, the connection dropping included
    // ("Connection to ... closed", a server-alive timeout).
    int stream(const std::vector<std::string>& remote_argv, const std::function<void(const std::string&)>& on_line) const;

    // The same with its stdin open until the output ends: a line `on_line`
    // returns is written to it (with a newline) before the next output line
    // is read; nullopt writes nothing. A reader gone by then is not an
    // error here (no SIGPIPE): the exit code says how the command ended.
    using Answerer = std::function<std::optional<std::string>(const std::string& line)>;
    int stream_answering(const std::vector<std::string>& remote_argv, const Answerer& on_line) const;

private:
    void check_ssh(int exit_code, const std::string& err) const;
    int stream_lines(const std::vector<std::string>& remote_argv, const Answerer& on_line, bool keep_stdin) const;

    SshTarget target_;
    SshOptions options_;
    std::filesystem::path control_dir_;
};

}  // namespace stand::fleet
