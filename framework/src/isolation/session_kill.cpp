#include "isolation/session_kill.hpp"

#include <charconv>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <string>
#include <thread>

namespace stand::isolation {
namespace {

struct StatLine {
    char state = '?';
    long session = -1;
};

// /proc/PID/stat: "pid (comm) state ppid pgrp session ...", comm may hold spaces and parentheses.
StatLine read_stat(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    StatLine out;
    const auto close = line.rfind(')');
    if (close == std::string::npos || close + 2 >= line.size()) return out;
    std::istringstream fields(line.substr(close + 2));
    long ppid = 0, pgrp = 0;
    fields >> out.state >> ppid >> pgrp >> out.session;
    if (!fields) out.session = -1;
    return out;
}

}  // namespace

std::vector<pid_t> session_members(pid_t sid) {
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        pid_t pid = 0;
        const auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), pid);
        if (err != std::errc{} || end != name.data() + name.size()) continue;
        const StatLine stat = read_stat(entry.path() / "stat");
        if (stat.session == sid && stat.state != 'Z' && stat.state != 'X') out.push_back(pid);
    }
    return out;
}

std::size_t kill_session(pid_t sid) {
    if (sid <= 1) return 0;
    std::set<pid_t> signalled;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < give_up) {
        const auto members = session_members(sid);
        if (members.empty()) break;
        for (pid_t pid : members) {
            ::kill(pid, SIGKILL);
            signalled.insert(pid);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return signalled.size();
}

}  // namespace stand::isolation
