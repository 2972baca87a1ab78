// The sockets the processes of a box listen on: cgroup.procs of the box and
// of every group below it (containers started with the box as cgroup
// parent) -> /proc/PID/fd socket inodes -> /proc/PID/net/{tcp,tcp6,udp,udp6}
// of that process's network namespace.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stand::compat {

struct ListeningSocket {
    std::string protocol;  // "tcp" (LISTEN) or "udp" (bound, not connected)
    std::string address;   // "127.0.0.1", "::", "::ffff:127.0.0.1" is given as "127.0.0.1"
    int port = 0;
    std::int64_t pid = 0;
    std::string process;   // /proc/PID/comm
    bool own_network = false;  // in a network namespace other than stand's (a container)

    std::string describe() const;  // "python3 (pid 42) tcp 0.0.0.0:2053"
};

struct BoxSockets {
    std::size_t processes = 0;
    std::vector<ListeningSocket> sockets;
};

BoxSockets box_sockets(const std::vector<std::filesystem::path>& box_dirs);

// Parses one /proc/net/{tcp,tcp6,udp,udp6} text: (inode, address, port) of
// every listening TCP socket or bound, unconnected UDP socket.
struct ProcNetEntry {
    std::uint64_t inode = 0;
    std::string address;
    int port = 0;
};
std::vector<ProcNetEntry> parse_proc_net(const std::string& text, bool tcp, bool v6);

}  // namespace stand::compat
