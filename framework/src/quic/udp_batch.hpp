// Batched UDP for a connected QUIC socket: GSO (UDP_SEGMENT) and sendmmsg on
// send, GRO (UDP_GRO) and recvmmsg on receive, ECN marks both ways. What the
// kernel refuses falls back at run time (GSO to sendmmsg, GRO to plain
// recvmmsg, ECN to unmarked), and the fallback is named in UdpIoFeatures so
// a result can say which path produced its numbers. All of it runs on the
// connection's thread; nothing here locks.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stand::quic {

// What the caller asks for. `automatic`: GSO and GRO where the kernel takes
// them, else sendmmsg/recvmmsg. `mmsg`: sendmmsg/recvmmsg without offload
// (what `automatic` falls back to). `off`: one datagram per system call (the
// unbatched client, for comparison).
enum class UdpBatching { automatic, mmsg, off };
const char* udp_batching_name(UdpBatching mode) noexcept;  // "auto", "mmsg", "off"
std::optional<UdpBatching> parse_udp_batching(std::string_view name);

// What one socket does after the kernel had its say.
struct UdpIoFeatures {
    UdpBatching requested = UdpBatching::automatic;
    bool gso = false;   // sends carry UDP_SEGMENT: one system call per burst of equal-sized packets
    bool gro = false;   // receives take the kernel's coalesced datagrams whole
    bool mmsg = false;  // sendmmsg/recvmmsg: several messages per system call
    bool ecn = false;   // outgoing packets carry ngtcp2's ECN codepoint; incoming ones report theirs
    int receive_buffer = 0;  // SO_RCVBUF as the kernel set it, in bytes (it doubles what it grants)
    std::vector<std::string> fallbacks;  // each refusal: what the kernel said and what is used instead

    std::string send_path() const;     // "gso+sendmmsg", "sendmmsg", "sendmsg"
    std::string receive_path() const;  // "gro+recvmmsg", "recvmmsg", "recvmsg"
    void note_fallback(std::string what);  // once per text
};

// The system calls this module makes, replaceable so a test can make the
// kernel refuse one. The defaults are libc's.
struct UdpSyscalls {
    int (*setsockopt)(int fd, int level, int name, const void* value, socklen_t len);
    ssize_t (*sendmsg)(int fd, const msghdr* msg, int flags);
    int (*sendmmsg)(int fd, mmsghdr* msgs, unsigned count, int flags);
    ssize_t (*recvmsg)(int fd, msghdr* msg, int flags);
    int (*recvmmsg)(int fd, mmsghdr* msgs, unsigned count, int flags, timespec* timeout);
};
const UdpSyscalls& kernel_udp_syscalls() noexcept;

// The receive buffer a QUIC socket asks for, as quic-go does (with
// SO_RCVBUFFORCE where allowed): a download at Gbit/s outruns the default
// 208 KiB between two reads and loses packets to it.
inline constexpr int kQuicReceiveBuffer = 4 << 20;

// Turns on, on a connected UDP socket, what `requested` allows and the
// kernel accepts: the receive buffer, UDP_GRO, IP_RECVTOS / IPV6_RECVTCLASS,
// and (probed with setsockopt) UDP_SEGMENT. A refusal is a fallback, never
// an error.
UdpIoFeatures configure_udp_socket(int fd, bool ipv6, UdpBatching requested, const UdpSyscalls& sys);

enum class UdpIoStatus { ok, would_block, refused, failed };
struct UdpIoResult {
    UdpIoStatus status = UdpIoStatus::ok;
    int error = 0;            // errno for refused and failed
    std::size_t packets = 0;  // sent or received by this call (QUIC packets, not system calls)
    std::size_t bytes = 0;
    bool full = false;        // receive: every message slot was filled, so more may be queued
};

// A burst of outgoing packets, written in place by the caller and sent by
// flush() in as few system calls as the features allow. Equal-sized packets
// with the same ECN mark share one GSO message; a shorter one ends it.
class UdpBatchSender {
public:
    static constexpr std::size_t kBufferSize = 64 * 1024;
    static constexpr std::size_t kMaxSegments = 64;  // the kernel's UDP_MAX_SEGMENTS is at least this

    UdpBatchSender();
    // Room for the next packet of up to `room` bytes; nullptr when the
    // burst holds no more (flush first).
    std::uint8_t* slot(std::size_t room) noexcept;
    // The packet just written at slot(): `len` bytes, ECN codepoint `ecn`.
    void add(std::size_t len, std::uint8_t ecn, const UdpIoFeatures& features);
    bool empty() const noexcept { return next_ == messages_.size(); }
    std::size_t queued_packets() const noexcept;
    // Sends what is queued. would_block keeps the rest queued for the next
    // flush; a GSO refusal turns GSO off in `features` (named) and resends
    // the same packets one per message.
    UdpIoResult flush(int fd, bool ipv6, UdpIoFeatures& features, const UdpSyscalls& sys);

private:
    struct Message {
        std::size_t offset = 0;
        std::size_t len = 0;      // all segments
        std::size_t segment = 0;  // the size of each but the last
        std::size_t segments = 0;
        std::uint8_t ecn = 0;
    };
    void split_into_single_packets();
    void reset() noexcept;

    std::unique_ptr<std::uint8_t[]> buffer_;
    std::size_t used_ = 0;
    std::vector<Message> messages_;
    std::size_t next_ = 0;  // the first message not sent yet
    bool interrupted_ = false;  // a flush stopped at a full socket: the burst is closed to new packets
};

struct UdpDatagram {
    const std::uint8_t* data = nullptr;
    std::size_t len = 0;
    std::uint8_t ecn = 0;
};

// Reads what a socket has queued, up to one batch, and hands back every
// datagram (a GRO message split at its segment size). The views live until
// the next receive on this thread; one receiver per thread is enough
// because a connection handles its datagrams before reading again.
class UdpBatchReceiver {
public:
    static constexpr std::size_t kMessages = 16;
    static constexpr std::size_t kMessageSize = 64 * 1024;

    UdpBatchReceiver();
    // would_block with no datagrams when nothing is queued.
    UdpIoResult receive(int fd, const UdpIoFeatures& features, const UdpSyscalls& sys);
    std::span<const UdpDatagram> datagrams() const noexcept { return datagrams_; }

    static UdpBatchReceiver& for_this_thread();

private:
    void take(const msghdr& msg, std::size_t len, const UdpIoFeatures& features, std::uint8_t* data);

    std::unique_ptr<std::uint8_t[]> buffers_;  // kMessages * kMessageSize, touched only as used
    std::vector<UdpDatagram> datagrams_;
};

}  // namespace stand::quic
