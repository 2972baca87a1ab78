#include "compat/box_sockets.hpp"

#include "box/box_processes.hpp"
#include "box/kill_group.hpp"
#include "text/text_file.hpp"

#include <boost/asio/ip/address.hpp>

#include <array>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace stand::compat {
namespace {

namespace fs = std::filesystem;

std::string link_target(const fs::path& p) {
    std::error_code ec;
    auto t = fs::read_symlink(p, ec);
    return ec ? std::string() : t.string();
}

// /proc/net prints each 32-bit word of an address in host byte order.
std::string hex_address(const std::string& hex, bool v6) {
    const std::size_t words = v6 ? 4 : 1;
    if (hex.size() != words * 8) return hex;
    std::array<unsigned char, 16> bytes{};
    for (std::size_t w = 0; w < words; ++w) {
        const std::uint32_t word = static_cast<std::uint32_t>(std::stoul(hex.substr(w * 8, 8), nullptr, 16));
        for (int b = 0; b < 4; ++b) bytes[w * 4 + static_cast<std::size_t>(b)] = static_cast<unsigned char>(word >> (8 * b));
    }
    if (!v6) return boost::asio::ip::address_v4({bytes[0], bytes[1], bytes[2], bytes[3]}).to_string();
    boost::asio::ip::address_v6 a(bytes);
    if (a.is_v4_mapped()) return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, a).to_string();
    return a.to_string();
}

}  // namespace

std::string ListeningSocket::describe() const {
    const bool v6 = address.find(':') != std::string::npos;
    return process + " (pid " + std::to_string(pid) + ") " + protocol + " " + (v6 ? "[" + address + "]" : address) +
           ":" + std::to_string(port) + (own_network ? " in its own network namespace" : "");
}

std::vector<ProcNetEntry> parse_proc_net(const std::string& text, bool tcp, bool v6) {
    std::vector<ProcNetEntry> out;
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
        std::istringstream f(line);
        std::string slot, local, remote, state, queues, timer, retrans, uid, timeout, inode;
        if (!(f >> slot >> local >> remote >> state >> queues >> timer >> retrans >> uid >> timeout >> inode)) continue;
        const auto lc = local.find(':'), rc = remote.find(':');
        if (lc == std::string::npos || rc == std::string::npos) continue;
        const bool remote_unset = remote.find_first_not_of("0:") == std::string::npos;
        if (tcp ? state != "0A" : !(state == "07" && remote_unset)) continue;
        ProcNetEntry e;
        e.inode = std::stoull(inode);
        e.address = hex_address(local.substr(0, lc), v6);
        e.port = static_cast<int>(std::stoul(local.substr(lc + 1), nullptr, 16));
        if (e.inode != 0 && e.port != 0) out.push_back(e);
    }
    return out;
}

BoxSockets box_sockets(const std::vector<fs::path>& box_dirs) {
    BoxSockets result;
    const std::string own_net = link_target("/proc/self/ns/net");
    std::map<std::string, std::map<std::uint64_t, std::pair<std::string, ProcNetEntry>>> by_netns;
    std::set<std::uint64_t> seen;  // a socket shared by forked workers is listed once
    const auto pids = box::group_pids(box::with_subgroups(box_dirs));
    result.processes = pids.size();
    for (pid_t pid : pids) {
        const fs::path proc = "/proc/" + std::to_string(pid);
        const std::string netns = link_target(proc / "ns" / "net");
        if (netns.empty()) continue;  // gone meanwhile
        auto tables = by_netns.find(netns);
        std::string comm;
        try {
            if (tables == by_netns.end()) {
                tables = by_netns.try_emplace(netns).first;
                for (const auto& [file, tcp, v6] : {std::tuple{"tcp", true, false}, std::tuple{"tcp6", true, true},
                                                    std::tuple{"udp", false, false}, std::tuple{"udp6", false, true}})
                    for (auto& e : parse_proc_net(text::read_text_file(proc / "net" / file), tcp, v6))
                        tables->second[e.inode] = {tcp ? "tcp" : "udp", e};
            }
            comm = text::read_text_file(proc / "comm");
        } catch (const std::exception&) {
            by_netns.erase(netns);  // the process ended meanwhile; another member may read the tables
            continue;
        }
        while (!comm.empty() && comm.back() == '\n') comm.pop_back();
        std::error_code ec;
        for (fs::directory_iterator it(proc / "fd", ec), end; !ec && it != end; it.increment(ec)) {
            const std::string t = link_target(it->path());
            if (t.rfind("socket:[", 0) != 0) continue;
            const std::uint64_t inode = std::stoull(t.substr(8));
            auto found = tables->second.find(inode);
            if (found == tables->second.end() || !seen.insert(inode).second) continue;
            result.sockets.push_back({found->second.first, found->second.second.address, found->second.second.port,
                                      pid, comm, netns != own_net});
        }
    }
    return result;
}

}  // namespace stand::compat
