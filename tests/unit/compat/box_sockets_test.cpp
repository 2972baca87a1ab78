// /proc/net tables as listens-only-configured reads them, and a live look at
// this process's own listening socket.
#include "compat/box_sockets.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/udp.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

using stand::compat::parse_proc_net;

TEST_CASE("box sockets: /proc/net/tcp keeps LISTEN entries, udp only unconnected bound ones") {
    const std::string tcp =
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
        "   0: 0100007F:0805 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1111 1 0\n"
        "   1: 00000000:0FA0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2222 1 0\n"
        "   2: 0100007F:0805 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0\n";
    auto entries = parse_proc_net(tcp, true, false);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].inode == 1111);
    CHECK(entries[0].address == "127.0.0.1");
    CHECK(entries[0].port == 2053);
    CHECK(entries[1].address == "0.0.0.0");
    CHECK(entries[1].port == 4000);

    const std::string tcp6 =
        "  sl  local_address                         remote_address                        st\n"
        "   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 "
        "00:00000000 00000000     0        0 4444 1 0\n"
        "   1: 0000000000000000FFFF00000100007F:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 "
        "00:00000000 00000000     0        0 5555 1 0\n"
        "   2: 00000000000000000000000001000000:0051 00000000000000000000000000000000:0000 0A 00000000:00000000 "
        "00:00000000 00000000     0        0 6666 1 0\n";
    auto six = parse_proc_net(tcp6, true, true);
    REQUIRE(six.size() == 3);
    CHECK(six[0].address == "::");
    CHECK(six[0].port == 8080);
    CHECK(six[1].address == "127.0.0.1");  // v4-mapped
    CHECK(six[2].address == "::1");

    const std::string udp =
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n"
        "   0: 0100007F:01BB 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 7777 2 0 0\n"
        "   1: 0100007F:A000 0100007F:0035 01 00000000:00000000 00:00000000 00000000     0        0 8888 2 0 0\n";
    auto u = parse_proc_net(udp, false, false);
    REQUIRE(u.size() == 1);
    CHECK(u[0].port == 443);
}

TEST_CASE("box sockets: a process of the group is found with its listening socket") {
    // A cgroup-like directory whose cgroup.procs names this process.
    const auto dir = std::filesystem::temp_directory_path() / ("stand-box-sockets-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "cgroup.procs") << ::getpid() << "\n";
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor listener(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    const int port = listener.local_endpoint().port();
    auto found = stand::compat::box_sockets({dir});
    std::filesystem::remove_all(dir);
    CHECK(found.processes == 1);
    bool seen = false;
    for (const auto& s : found.sockets)
        if (s.protocol == "tcp" && s.port == port) {
            seen = true;
            CHECK(s.address == "127.0.0.1");
            CHECK_FALSE(s.own_network);
            CHECK(s.describe().find("(pid " + std::to_string(::getpid()) + ") tcp 127.0.0.1:" + std::to_string(port)) !=
                  std::string::npos);
        }
    CHECK(seen);
}
