// quic/udp_batch on real loopback sockets: what GSO sends arrives as the same
// datagrams, GRO's coalesced ones are split back at their segment size, ECN
// marks survive, and each refusal of the kernel (made by a shim around the
// system calls) falls back with the fallback named and no packet lost.
#include "quic/udp_batch.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

using namespace stand::quic;

namespace {

// Two connected UDP sockets on 127.0.0.1, each bound to port 0.
struct SocketPair {
    int a = -1;
    int b = -1;
    SocketPair() {
        a = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        b = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(a, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        REQUIRE(::bind(b, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        sockaddr_in aa{}, bb{};
        socklen_t len = sizeof aa;
        ::getsockname(a, reinterpret_cast<sockaddr*>(&aa), &len);
        len = sizeof bb;
        ::getsockname(b, reinterpret_cast<sockaddr*>(&bb), &len);
        REQUIRE(::connect(a, reinterpret_cast<sockaddr*>(&bb), sizeof bb) == 0);
        REQUIRE(::connect(b, reinterpret_cast<sockaddr*>(&aa), sizeof aa) == 0);
    }
    ~SocketPair() {
        ::close(a);
        ::close(b);
    }
};

// Queues `sizes` packets whose bytes say which packet they are.
void queue(UdpBatchSender& sender, const UdpIoFeatures& f, const std::vector<std::size_t>& sizes, std::uint8_t ecn) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::uint8_t* slot = sender.slot(sizes[i]);
        REQUIRE(slot != nullptr);
        std::memset(slot, static_cast<int>('a' + i % 26), sizes[i]);
        sender.add(sizes[i], ecn, f);
    }
}

struct Got {
    std::vector<std::size_t> sizes;
    std::vector<char> first_bytes;
    std::vector<std::uint8_t> ecn;
};

// Everything b has, within a second.
Got drain(int fd, const UdpIoFeatures& f, std::size_t expected) {
    Got got;
    UdpBatchReceiver receiver;
    for (int tries = 0; tries < 100 && got.sizes.size() < expected; ++tries) {
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, 10);
        const UdpIoResult r = receiver.receive(fd, f, kernel_udp_syscalls());
        REQUIRE(r.status != UdpIoStatus::failed);
        for (const auto& d : receiver.datagrams()) {
            got.sizes.push_back(d.len);
            got.first_bytes.push_back(static_cast<char>(d.data[0]));
            got.ecn.push_back(d.ecn);
        }
    }
    return got;
}

bool has_cmsg(const msghdr* msg, int level, int type) {
    for (const cmsghdr* cm = CMSG_FIRSTHDR(msg); cm != nullptr; cm = CMSG_NXTHDR(const_cast<msghdr*>(msg), const_cast<cmsghdr*>(cm)))
        if (cm->cmsg_level == level && cm->cmsg_type == type) return true;
    return false;
}

// The kernel, except that it refuses what a test names.
bool refuse_gso_option = false;
bool refuse_gro_option = false;
bool refuse_gso_send = false;
int gso_sends_refused = 0;
int gso_sends = 0;
int send_room = 1 << 30;  // messages the socket takes before EAGAIN

int shim_setsockopt(int fd, int level, int name, const void* value, socklen_t len) {
    if (level == SOL_UDP && ((name == UDP_SEGMENT && refuse_gso_option) || (name == UDP_GRO && refuse_gro_option))) {
        errno = ENOPROTOOPT;
        return -1;
    }
    return ::setsockopt(fd, level, name, value, len);
}
ssize_t shim_sendmsg(int fd, const msghdr* msg, int flags) {
    if (has_cmsg(msg, SOL_UDP, UDP_SEGMENT)) {
        ++gso_sends;
        if (refuse_gso_send) {
            ++gso_sends_refused;
            errno = EIO;
            return -1;
        }
    }
    return ::sendmsg(fd, msg, flags);
}
int shim_sendmmsg(int fd, mmsghdr* msgs, unsigned count, int flags) {
    if (send_room == 0) {
        errno = EAGAIN;
        return -1;
    }
    if (count > static_cast<unsigned>(send_room)) count = static_cast<unsigned>(send_room);
    send_room -= static_cast<int>(count);
    for (unsigned i = 0; i < count; ++i) {
        if (!has_cmsg(&msgs[i].msg_hdr, SOL_UDP, UDP_SEGMENT)) continue;
        ++gso_sends;
        if (refuse_gso_send) {
            ++gso_sends_refused;
            if (i == 0) {
                errno = EIO;
                return -1;
            }
            return ::sendmmsg(fd, msgs, i, flags);
        }
    }
    return ::sendmmsg(fd, msgs, count, flags);
}
ssize_t shim_recvmsg(int fd, msghdr* msg, int flags) { return ::recvmsg(fd, msg, flags); }
int shim_recvmmsg(int fd, mmsghdr* msgs, unsigned count, int flags, timespec* timeout) {
    return ::recvmmsg(fd, msgs, count, flags, timeout);
}
const UdpSyscalls kShim{shim_setsockopt, shim_sendmsg, shim_sendmmsg, shim_recvmsg, shim_recvmmsg};

void reset_shim() {
    refuse_gso_option = refuse_gro_option = refuse_gso_send = false;
    gso_sends_refused = gso_sends = 0;
    send_room = 1 << 30;
}

}  // namespace

TEST_CASE("udp batching: the modes by name, and what each turns on here") {
    CHECK(parse_udp_batching("auto") == UdpBatching::automatic);
    CHECK(parse_udp_batching("mmsg") == UdpBatching::mmsg);
    CHECK(parse_udp_batching("off") == UdpBatching::off);
    CHECK_FALSE(parse_udp_batching("gso").has_value());
    CHECK(std::string(udp_batching_name(UdpBatching::automatic)) == "auto");

    SocketPair pair;
    const UdpIoFeatures off = configure_udp_socket(pair.a, false, UdpBatching::off, kernel_udp_syscalls());
    CHECK(off.send_path() == "sendmsg");
    CHECK(off.receive_path() == "recvmsg");
    const UdpIoFeatures mmsg = configure_udp_socket(pair.a, false, UdpBatching::mmsg, kernel_udp_syscalls());
    CHECK(mmsg.send_path() == "sendmmsg");
    CHECK(mmsg.receive_path() == "recvmmsg");
    CHECK(mmsg.ecn);
    CHECK(mmsg.receive_buffer > 0);
    // This machine's kernel (6.x) takes both offloads; where one does not,
    // the fallback is named (the shim cases below).
    const UdpIoFeatures full = configure_udp_socket(pair.b, false, UdpBatching::automatic, kernel_udp_syscalls());
    CHECK(full.send_path() == "gso+sendmmsg");
    CHECK(full.receive_path() == "gro+recvmmsg");
}

TEST_CASE("udp batching: a GSO burst arrives as the same datagrams, and GRO's are split back") {
    const std::vector<std::size_t> sizes{1200, 1200, 1200, 1200, 700, 1200, 1200, 90};
    for (const bool gro : {false, true}) {
        CAPTURE(gro);
        SocketPair pair;
        UdpIoFeatures tx = configure_udp_socket(pair.a, false, UdpBatching::automatic, kernel_udp_syscalls());
        REQUIRE(tx.gso);
        const UdpIoFeatures rx =
            configure_udp_socket(pair.b, false, gro ? UdpBatching::automatic : UdpBatching::mmsg, kernel_udp_syscalls());
        UdpBatchSender sender;
        queue(sender, tx, sizes, 0);
        const UdpIoResult sent = sender.flush(pair.a, false, tx, kernel_udp_syscalls());
        CHECK(sent.status == UdpIoStatus::ok);
        CHECK(sent.packets == sizes.size());
        CHECK(sent.bytes == 1200 * 6 + 700 + 90);
        CHECK(sender.empty());
        const Got got = drain(pair.b, rx, sizes.size());
        CHECK(got.sizes == sizes);
        CHECK(got.first_bytes == std::vector<char>{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'});
    }
}

TEST_CASE("udp batching: the ECN mark of each packet reaches the peer, in every mode") {
    for (const auto mode : {UdpBatching::automatic, UdpBatching::mmsg, UdpBatching::off}) {
        CAPTURE(udp_batching_name(mode));
        SocketPair pair;
        UdpIoFeatures tx = configure_udp_socket(pair.a, false, mode, kernel_udp_syscalls());
        const UdpIoFeatures rx = configure_udp_socket(pair.b, false, mode, kernel_udp_syscalls());
        REQUIRE(rx.ecn);
        UdpBatchSender sender;
        queue(sender, tx, {1000, 1000}, 2);  // ECT(0)
        queue(sender, tx, {1000}, 1);        // ECT(1): a new GSO message
        queue(sender, tx, {1000}, 0);        // Not-ECT
        CHECK(sender.flush(pair.a, false, tx, kernel_udp_syscalls()).packets == 4);
        const Got got = drain(pair.b, rx, 4);
        CHECK(got.sizes == std::vector<std::size_t>{1000, 1000, 1000, 1000});
        CHECK(got.ecn == std::vector<std::uint8_t>{2, 2, 1, 0});
    }
}

TEST_CASE("udp batching: a kernel that refuses the offload options falls back and says so") {
    reset_shim();
    refuse_gso_option = true;
    refuse_gro_option = true;
    SocketPair pair;
    UdpIoFeatures f = configure_udp_socket(pair.a, false, UdpBatching::automatic, kShim);
    CHECK(f.send_path() == "sendmmsg");
    CHECK(f.receive_path() == "recvmmsg");
    REQUIRE(f.fallbacks.size() >= 2);
    std::string all;
    for (const auto& line : f.fallbacks) all += line + "\n";
    CHECK(all.find("gro: the kernel refused UDP_GRO (ENOPROTOOPT") != std::string::npos);
    CHECK(all.find("gso: the kernel refused UDP_SEGMENT (ENOPROTOOPT") != std::string::npos);
    UdpBatchSender sender;
    queue(sender, f, {1200, 1200, 1200}, 0);
    CHECK(sender.flush(pair.a, false, f, kShim).packets == 3);
    CHECK(gso_sends == 0);
    CHECK(drain(pair.b, f, 3).sizes == std::vector<std::size_t>{1200, 1200, 1200});
    reset_shim();
}

TEST_CASE("udp batching: a GSO send the kernel refuses is resent one packet a message, GSO off from then on") {
    reset_shim();
    refuse_gso_send = true;
    SocketPair pair;
    UdpIoFeatures f = configure_udp_socket(pair.a, false, UdpBatching::automatic, kShim);
    REQUIRE(f.gso);
    const UdpIoFeatures rx = configure_udp_socket(pair.b, false, UdpBatching::mmsg, kernel_udp_syscalls());
    UdpBatchSender sender;
    const std::vector<std::size_t> sizes{1200, 1200, 1200, 500};
    queue(sender, f, sizes, 0);
    const UdpIoResult sent = sender.flush(pair.a, false, f, kShim);
    CHECK(sent.status == UdpIoStatus::ok);
    CHECK(sent.packets == 4);
    CHECK(gso_sends_refused == 1);
    CHECK_FALSE(f.gso);
    CHECK(f.send_path() == "sendmmsg");
    REQUIRE(f.fallbacks.size() == 1);
    CHECK(f.fallbacks[0].find("gso: the kernel refused a UDP_SEGMENT send (EIO") == 0);
    CHECK(drain(pair.b, rx, 4).sizes == sizes);
    // The next burst goes without GSO at all.
    queue(sender, f, {1200, 1200}, 0);
    CHECK(sender.flush(pair.a, false, f, kShim).packets == 2);
    CHECK(gso_sends == 1);
    CHECK(drain(pair.b, rx, 2).sizes == std::vector<std::size_t>{1200, 1200});
    reset_shim();
}

TEST_CASE("udp batching: a full socket keeps the rest of the burst for the next flush") {
    reset_shim();
    send_room = 3;
    SocketPair pair;
    UdpIoFeatures f = configure_udp_socket(pair.a, false, UdpBatching::mmsg, kShim);
    const UdpIoFeatures rx = configure_udp_socket(pair.b, false, UdpBatching::mmsg, kernel_udp_syscalls());
    UdpBatchSender sender;
    const std::vector<std::size_t> sizes{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009};
    queue(sender, f, sizes, 0);
    const UdpIoResult first = sender.flush(pair.a, false, f, kShim);
    CHECK(first.status == UdpIoStatus::would_block);
    CHECK(first.packets == 3);
    CHECK(sender.queued_packets() == 7);
    CHECK(sender.slot(1200) == nullptr);  // nothing new joins a half-sent burst
    send_room = 100;
    const UdpIoResult rest = sender.flush(pair.a, false, f, kShim);
    CHECK(rest.status == UdpIoStatus::ok);
    CHECK(rest.packets == 7);
    CHECK(sender.empty());
    CHECK(sender.slot(1200) != nullptr);
    const Got got = drain(pair.b, rx, sizes.size());
    CHECK(got.sizes == sizes);
    CHECK(got.first_bytes == std::vector<char>{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'});
    reset_shim();
}
