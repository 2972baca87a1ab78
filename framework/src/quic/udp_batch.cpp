#include "quic/udp_batch.hpp"

#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace stand::quic {
namespace {

// A GSO message's payload stays under IPv4's 65507-byte datagram limit.
constexpr std::size_t kMaxGsoBytes = 65000;
constexpr std::size_t kMaxMessagesPerCall = 64;
constexpr std::size_t kControlSize = CMSG_SPACE(sizeof(int)) * 3;

int kernel_setsockopt(int fd, int level, int name, const void* value, socklen_t len) {
    return ::setsockopt(fd, level, name, value, len);
}
ssize_t kernel_sendmsg(int fd, const msghdr* msg, int flags) { return ::sendmsg(fd, msg, flags); }
int kernel_sendmmsg(int fd, mmsghdr* msgs, unsigned count, int flags) { return ::sendmmsg(fd, msgs, count, flags); }
ssize_t kernel_recvmsg(int fd, msghdr* msg, int flags) { return ::recvmsg(fd, msg, flags); }
int kernel_recvmmsg(int fd, mmsghdr* msgs, unsigned count, int flags, timespec* timeout) {
    return ::recvmmsg(fd, msgs, count, flags, timeout);
}

std::string errno_text(int error) {
    std::string name;
    switch (error) {
    case EIO: name = "EIO"; break;
    case EINVAL: name = "EINVAL"; break;
    case EOPNOTSUPP: name = "EOPNOTSUPP"; break;
    case ENOPROTOOPT: name = "ENOPROTOOPT"; break;
    case EPERM: name = "EPERM"; break;
    default: name = "errno " + std::to_string(error);
    }
    return name + ", " + std::strerror(error);
}

bool is_would_block(int error) { return error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS || error == EINTR; }

// The kernel refuses a GSO send it cannot segment (a device without checksum
// offload: EIO) or does not know (EINVAL, EOPNOTSUPP).
bool is_gso_refusal(int error) { return error == EIO || error == EINVAL || error == EOPNOTSUPP || error == ENOPROTOOPT; }

void put_int_cmsg(cmsghdr* cm, int level, int type, int value) {
    cm->cmsg_level = level;
    cm->cmsg_type = type;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(cm), &value, sizeof value);
}

// Fills `msg` for one outgoing message: its bytes, and the cmsgs for GSO
// and the ECN mark when they apply.
void fill_message(msghdr& msg, iovec& iov, std::array<char, kControlSize>& control, std::uint8_t* data, std::size_t len,
                  std::size_t segment, std::size_t segments, std::uint8_t ecn, bool ipv6, const UdpIoFeatures& features) {
    iov.iov_base = data;
    iov.iov_len = len;
    msg = msghdr{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    std::size_t used = 0;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr* cm = CMSG_FIRSTHDR(&msg);
    if (features.gso && segments > 1) {
        cm->cmsg_level = SOL_UDP;
        cm->cmsg_type = UDP_SEGMENT;
        cm->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
        const auto size = static_cast<std::uint16_t>(segment);
        std::memcpy(CMSG_DATA(cm), &size, sizeof size);
        used += CMSG_SPACE(sizeof(std::uint16_t));
        cm = CMSG_NXTHDR(&msg, cm);
    }
    if (features.ecn && ecn != 0) {
        if (ipv6) put_int_cmsg(cm, IPPROTO_IPV6, IPV6_TCLASS, ecn);
        else put_int_cmsg(cm, IPPROTO_IP, IP_TOS, ecn);
        used += CMSG_SPACE(sizeof(int));
    }
    msg.msg_controllen = used;
    if (used == 0) msg.msg_control = nullptr;
}

}  // namespace

const char* udp_batching_name(UdpBatching mode) noexcept {
    switch (mode) {
    case UdpBatching::automatic: return "auto";
    case UdpBatching::mmsg: return "mmsg";
    case UdpBatching::off: return "off";
    }
    return "?";
}

std::optional<UdpBatching> parse_udp_batching(std::string_view name) {
    for (auto mode : {UdpBatching::automatic, UdpBatching::mmsg, UdpBatching::off})
        if (name == udp_batching_name(mode)) return mode;
    return std::nullopt;
}

std::string UdpIoFeatures::send_path() const {
    if (gso) return "gso+sendmmsg";
    return mmsg ? "sendmmsg" : "sendmsg";
}

std::string UdpIoFeatures::receive_path() const {
    if (gro) return "gro+recvmmsg";
    return mmsg ? "recvmmsg" : "recvmsg";
}

void UdpIoFeatures::note_fallback(std::string what) {
    if (std::find(fallbacks.begin(), fallbacks.end(), what) == fallbacks.end()) fallbacks.push_back(std::move(what));
}

const UdpSyscalls& kernel_udp_syscalls() noexcept {
    static const UdpSyscalls kernel{kernel_setsockopt, kernel_sendmsg, kernel_sendmmsg, kernel_recvmsg, kernel_recvmmsg};
    return kernel;
}

namespace {

// SO_RCVBUFFORCE (root) or SO_RCVBUF (capped by net.core.rmem_max).
void set_receive_buffer(int fd, const UdpSyscalls& sys, UdpIoFeatures& f) {
    const int wanted = kQuicReceiveBuffer;
    if (sys.setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &wanted, sizeof wanted) != 0)
        sys.setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &wanted, sizeof wanted);
    socklen_t len = sizeof f.receive_buffer;
    if (::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &f.receive_buffer, &len) != 0) f.receive_buffer = 0;
    if (f.receive_buffer / 2 < wanted)
        f.note_fallback("receive buffer: " + std::to_string(wanted >> 10) + " KiB asked, the kernel granted " +
                        std::to_string(f.receive_buffer / 2 >> 10) +
                        " KiB (net.core.rmem_max; SO_RCVBUFFORCE needs CAP_NET_ADMIN): a burst beyond it is lost");
}

}  // namespace

UdpIoFeatures configure_udp_socket(int fd, bool ipv6, UdpBatching requested, const UdpSyscalls& sys) {
    UdpIoFeatures f;
    f.requested = requested;
    set_receive_buffer(fd, sys, f);
    const int one = 1;
    if (ipv6 ? sys.setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, &one, sizeof one) == 0
             : sys.setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &one, sizeof one) == 0)
        f.ecn = true;
    else
        f.note_fallback(std::string("ecn: the kernel refused ") + (ipv6 ? "IPV6_RECVTCLASS" : "IP_RECVTOS") + " (" +
                        errno_text(errno) + "): packets go unmarked");
    if (requested == UdpBatching::off) return f;
    f.mmsg = true;
    if (requested != UdpBatching::automatic) return f;
    if (sys.setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof one) == 0)
        f.gro = true;
    else
        f.note_fallback("gro: the kernel refused UDP_GRO (" + errno_text(errno) + "): recvmmsg without it");
    // UDP_SEGMENT as a socket option says the kernel knows GSO; each send
    // sets its own size in a cmsg, so the option goes back to 0.
    int probe = 1200;
    if (sys.setsockopt(fd, SOL_UDP, UDP_SEGMENT, &probe, sizeof probe) == 0) {
        f.gso = true;
        probe = 0;
        sys.setsockopt(fd, SOL_UDP, UDP_SEGMENT, &probe, sizeof probe);
    } else {
        f.note_fallback("gso: the kernel refused UDP_SEGMENT (" + errno_text(errno) + "): sendmmsg without it");
    }
    return f;
}

UdpBatchSender::UdpBatchSender() : buffer_(new std::uint8_t[kBufferSize]) { messages_.reserve(kMaxMessagesPerCall); }

std::uint8_t* UdpBatchSender::slot(std::size_t room) noexcept {
    if (interrupted_ || used_ + room > kBufferSize || messages_.size() >= kMaxMessagesPerCall * 4) return nullptr;
    return buffer_.get() + used_;
}

void UdpBatchSender::add(std::size_t len, std::uint8_t ecn, const UdpIoFeatures& features) {
    if (features.gso && !messages_.empty()) {
        Message& last = messages_.back();
        const bool last_is_whole = last.len == last.segment * last.segments;  // no short segment ends it yet
        if (last_is_whole && last.ecn == ecn && len <= last.segment && last.segments < kMaxSegments &&
            last.len + len <= kMaxGsoBytes && last.offset + last.len == used_) {
            last.len += len;
            ++last.segments;
            used_ += len;
            return;
        }
    }
    messages_.push_back(Message{used_, len, len, 1, ecn});
    used_ += len;
}

std::size_t UdpBatchSender::queued_packets() const noexcept {
    std::size_t n = 0;
    for (std::size_t i = next_; i < messages_.size(); ++i) n += messages_[i].segments;
    return n;
}

void UdpBatchSender::split_into_single_packets() {
    std::vector<Message> singles;
    for (std::size_t i = next_; i < messages_.size(); ++i) {
        const Message& m = messages_[i];
        for (std::size_t off = 0; off < m.len; off += m.segment) {
            const std::size_t len = std::min(m.segment, m.len - off);
            singles.push_back(Message{m.offset + off, len, len, 1, m.ecn});
        }
    }
    messages_ = std::move(singles);
    next_ = 0;
}

void UdpBatchSender::reset() noexcept {
    interrupted_ = false;
    used_ = 0;
    messages_.clear();
    next_ = 0;
}

UdpIoResult UdpBatchSender::flush(int fd, bool ipv6, UdpIoFeatures& features, const UdpSyscalls& sys) {
    UdpIoResult result;
    std::array<mmsghdr, kMaxMessagesPerCall> headers{};
    std::array<iovec, kMaxMessagesPerCall> iovs{};
    std::array<std::array<char, kControlSize>, kMaxMessagesPerCall> controls{};
    while (next_ < messages_.size()) {
        const std::size_t count = features.mmsg ? std::min(messages_.size() - next_, kMaxMessagesPerCall) : 1;
        for (std::size_t i = 0; i < count; ++i) {
            const Message& m = messages_[next_ + i];
            fill_message(headers[i].msg_hdr, iovs[i], controls[i], buffer_.get() + m.offset, m.len, m.segment,
                         m.segments, m.ecn, ipv6, features);
        }
        int sent = 0;
        if (features.mmsg) {
            sent = sys.sendmmsg(fd, headers.data(), static_cast<unsigned>(count), 0);
        } else {
            sent = sys.sendmsg(fd, &headers[0].msg_hdr, 0) < 0 ? -1 : 1;
        }
        if (sent < 0) {
            const int error = errno;
            const Message& m = messages_[next_];
            if (features.gso && m.segments > 1 && is_gso_refusal(error)) {
                features.gso = false;
                features.note_fallback("gso: the kernel refused a UDP_SEGMENT send (" + errno_text(error) +
                                       "): sendmmsg without it");
                split_into_single_packets();
                continue;
            }
            if (is_would_block(error)) {
                interrupted_ = true;
                result.status = UdpIoStatus::would_block;
                return result;
            }
            result.status = error == ECONNREFUSED ? UdpIoStatus::refused : UdpIoStatus::failed;
            result.error = error;
            reset();
            return result;
        }
        for (int i = 0; i < sent; ++i) {
            result.packets += messages_[next_].segments;
            result.bytes += messages_[next_].len;
            ++next_;
        }
    }
    reset();
    return result;
}

UdpBatchReceiver::UdpBatchReceiver() : buffers_(new std::uint8_t[kMessages * kMessageSize]) {
    datagrams_.reserve(kMessages * 64);
}

UdpBatchReceiver& UdpBatchReceiver::for_this_thread() {
    thread_local UdpBatchReceiver receiver;
    return receiver;
}

void UdpBatchReceiver::take(const msghdr& msg, std::size_t len, const UdpIoFeatures& features, std::uint8_t* data) {
    std::size_t segment = 0;
    std::uint8_t ecn = 0;
    for (const cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm != nullptr; cm = CMSG_NXTHDR(const_cast<msghdr*>(&msg), const_cast<cmsghdr*>(cm))) {
        if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO) {
            int size = 0;
            std::memcpy(&size, CMSG_DATA(cm), sizeof size);
            if (size > 0) segment = static_cast<std::size_t>(size);
        } else if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_TOS) {
            ecn = *CMSG_DATA(cm) & 0x3;
        } else if (cm->cmsg_level == IPPROTO_IPV6 && cm->cmsg_type == IPV6_TCLASS) {
            int tclass = 0;
            std::memcpy(&tclass, CMSG_DATA(cm), sizeof tclass);
            ecn = static_cast<std::uint8_t>(tclass & 0x3);
        }
    }
    if (!features.ecn) ecn = 0;
    if (segment == 0 || segment >= len) {
        datagrams_.push_back(UdpDatagram{data, len, ecn});
        return;
    }
    for (std::size_t off = 0; off < len; off += segment)
        datagrams_.push_back(UdpDatagram{data + off, std::min(segment, len - off), ecn});
}

UdpIoResult UdpBatchReceiver::receive(int fd, const UdpIoFeatures& features, const UdpSyscalls& sys) {
    datagrams_.clear();
    UdpIoResult result;
    std::array<mmsghdr, kMessages> headers{};
    std::array<iovec, kMessages> iovs{};
    std::array<std::array<char, kControlSize>, kMessages> controls{};
    const std::size_t count = features.mmsg ? kMessages : 1;
    for (std::size_t i = 0; i < count; ++i) {
        iovs[i].iov_base = buffers_.get() + i * kMessageSize;
        iovs[i].iov_len = kMessageSize;
        msghdr& msg = headers[i].msg_hdr;
        msg.msg_iov = &iovs[i];
        msg.msg_iovlen = 1;
        msg.msg_control = controls[i].data();
        msg.msg_controllen = controls[i].size();
    }
    int got = 0;
    if (features.mmsg) {
        got = sys.recvmmsg(fd, headers.data(), static_cast<unsigned>(count), MSG_DONTWAIT, nullptr);
    } else {
        const ssize_t n = sys.recvmsg(fd, &headers[0].msg_hdr, MSG_DONTWAIT);
        got = n < 0 ? -1 : 1;
        if (n >= 0) headers[0].msg_len = static_cast<unsigned>(n);
    }
    if (got < 0) {
        const int error = errno;
        if (error == EAGAIN || error == EWOULDBLOCK || error == EINTR) {
            result.status = UdpIoStatus::would_block;
            return result;
        }
        result.status = error == ECONNREFUSED ? UdpIoStatus::refused : UdpIoStatus::failed;
        result.error = error;
        return result;
    }
    for (int i = 0; i < got; ++i) {
        const msghdr& msg = headers[i].msg_hdr;
        if ((msg.msg_flags & MSG_TRUNC) != 0) continue;  // larger than any QUIC packet: not ours to read
        take(msg, headers[i].msg_len, features, static_cast<std::uint8_t*>(iovs[i].iov_base));
        result.bytes += headers[i].msg_len;
    }
    result.packets = datagrams_.size();
    result.full = static_cast<std::size_t>(got) == count;
    return result;
}

}  // namespace stand::quic
