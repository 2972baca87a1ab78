// A stand started on a fleet host that the controller can stop: its
// request files go up first (mode 0600: nothing secret on a command line),
// the command records its pid and prints it first, and SIGINT reaches it
// through the session when the user presses Ctrl-C here.
#pragma once

#include "fleet/ssh_session.hpp"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace stand::fleet {

// Writes `content` to ~/`path` on the host (its directory made), readable by
// the owner only. Throws FleetError naming the host and the file.
void upload_private_file(const SshSession& session, const std::string& path, const std::string& content);

// The remote argv that writes its pid into ~/`pid_file`, prints the pid line
// (remote_pid_of) before anything else, ignores SIGPIPE (a dropped
// connection must not kill it half way through a step) and then execs `argv`.
std::vector<std::string> launched(const std::string& pid_file, const std::vector<std::string>& argv);

// The remote argv that runs `argv` in the background with its pid in
// ~/`pid_file` and printed first (remote_pid_of), for as long as the
// connection that started it lasts: once the command's stdin ends (the
// controller closed it, or its ssh went away) `argv` gets SIGTERM. For
// helpers that must not outlive the run (a backend), run with
// SshSession::stream_answering, whose stdin stays open until the output ends.
std::vector<std::string> tied_to_connection(const std::string& pid_file, const std::vector<std::string>& argv);

// The pid a launched() or tied_to_connection() command printed, or 0 when `line` is not that line.
long remote_pid_of(const std::string& line);

// Sends SIGINT to the remote process once `interrupted` is set and its pid
// is known (set_pid, from the command's output thread); stops watching
// when destroyed. A connection that is gone by then is not an error here:
// the caller's outcome says the remote side may go on.
class RemoteInterrupter {
public:
    RemoteInterrupter(const SshSession& session, const std::atomic<bool>& interrupted);
    ~RemoteInterrupter();
    RemoteInterrupter(const RemoteInterrupter&) = delete;
    RemoteInterrupter& operator=(const RemoteInterrupter&) = delete;
    void set_pid(long pid) { pid_.store(pid); }

private:
    void watch();

    const SshSession& session_;
    const std::atomic<bool>& interrupted_;
    std::atomic<long> pid_{0};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace stand::fleet
