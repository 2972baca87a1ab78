#include "fleet/remote_process.hpp"

#include "fleet/fleet_error.hpp"

#include <chrono>
#include <cstdlib>
#include <string_view>

namespace stand::fleet {
namespace {

// Writes stdin to the file $1 (its directory made), readable by the owner only.
constexpr const char* kWriteFile = "umask 077; mkdir -p \"$(dirname \"$1\")\" && cat > \"$1\"";
constexpr const char* kLaunch = "trap '' PIPE; echo $$ > \"$1\"; shift; echo \"stand-remote-pid $$\"; exec \"$@\"";
constexpr std::string_view kPidLine = "stand-remote-pid ";
// $1 the pid file, then the argv. A background list's stdin is /dev/null
// in sh, so the watcher gets the session's stdin through fd 3 explicitly.
constexpr const char* kTied =
    "f=$1; shift; mkdir -p \"$(dirname \"$f\")\" || exit 1; exec 3<&0; \"$@\" 3<&- & p=$!; echo \"$p\" > \"$f\"; "
    "echo \"stand-remote-pid $p\"; (cat >/dev/null; kill -TERM \"$p\" 2>/dev/null) <&3 >/dev/null 2>&1 & "
    "exec 3<&-; wait \"$p\"";

}  // namespace

void upload_private_file(const SshSession& session, const std::string& path, const std::string& content) {
    const auto r = session.run({"sh", "-c", kWriteFile, "sh", path}, content);
    if (r.exit_code != 0)
        throw FleetError("host " + session.target().name + ": could not write ~/" + path + ": " + last_line(r.err));
}

std::vector<std::string> launched(const std::string& pid_file, const std::vector<std::string>& argv) {
    std::vector<std::string> out{"sh", "-c", kLaunch, "sh", pid_file};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

std::vector<std::string> tied_to_connection(const std::string& pid_file, const std::vector<std::string>& argv) {
    std::vector<std::string> out{"sh", "-c", kTied, "sh", pid_file};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

long remote_pid_of(const std::string& line) {
    if (line.rfind(kPidLine, 0) != 0) return 0;
    return std::atol(line.c_str() + kPidLine.size());
}

RemoteInterrupter::RemoteInterrupter(const SshSession& session, const std::atomic<bool>& interrupted)
    : session_(session), interrupted_(interrupted), thread_([this] { watch(); }) {}

RemoteInterrupter::~RemoteInterrupter() {
    done_.store(true);
    thread_.join();
}

void RemoteInterrupter::watch() {
    bool sent = false;
    while (!done_.load() && !sent) {
        if (interrupted_.load() && pid_.load() > 0) {
            try {
                session_.run({"kill", "-INT", std::to_string(pid_.load())}, {}, std::chrono::seconds(30));
            } catch (const std::exception&) {
                // The connection is gone: the caller's outcome says the remote side may go on.
            }
            sent = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

}  // namespace stand::fleet
