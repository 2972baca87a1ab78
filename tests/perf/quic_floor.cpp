// The floor under a QUIC client's download on this machine, for
// tests/perf/quic_profile.sh: what the kernel charges the receiving thread
// for the datagrams a QUIC client reads, and what GnuTLS's AES-128-GCM
// costs per byte decrypted. One JSON object on stdout; exit 2 on a usage
// error, 1 when the kernel refuses something.
//
//   stand_quic_floor udp --segment BYTES [--no-gro] [--seconds S] [--rate-mbit R]
//                        [--receiver-cpu C] [--sender-cpu C]
//   stand_quic_floor aes --size BYTES [--seconds S]
//
// udp: a sender thread sends GSO bursts of equal datagrams (UDP_SEGMENT, up
// to 64 segments and 64 KiB a burst, as quic-go and stand send) to a
// receiver thread over loopback, flat out (--rate-mbit 0, the default) or
// paced. The receiver reads as stand's UdpBatchReceiver does: recvmmsg of 16
// messages of 64 KiB with IP_RECVTOS and UDP_GRO (--no-gro: without, one
// datagram a message), blocking for the first message (MSG_WAITFORONE).
// Its CPU (getrusage RUSAGE_THREAD, user + system) over what it received is
// the kernel's receive cost: on loopback the sending CPU runs the softirq
// half (IP, UDP, GRO or the split of a GSO burst), as the server's CPU does
// for a real client, so the receiver pays the system calls, the wake-ups,
// the copies to user space and freeing the buffers.
// aes: decrypts one SIZE-byte packet (with a 20-byte header as associated
// data, as a QUIC short header is) again and again with
// gnutls_aead_cipher_decrypt, the call ngtcp2's GnuTLS backend makes;
// ns_per_packet is the fastest slice's (the mean beside it), ns_per_byte
// per plaintext byte.
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
    std::string mode;
    std::size_t segment = 0;  // udp: bytes a datagram; aes: bytes a packet
    bool gro = true;
    double seconds = 3;
    double rate_mbit = 0;
    int receiver_cpu = -1;
    int sender_cpu = -1;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "stand_quic_floor: %s\nusage: stand_quic_floor udp --segment BYTES [--no-gro] [--seconds S] "
                 "[--rate-mbit R] [--receiver-cpu C] [--sender-cpu C]\n"
                 "       stand_quic_floor aes --size BYTES [--seconds S]\n",
                 why);
    std::exit(2);
}

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "stand_quic_floor: %s: %s\n", what, std::strerror(errno));
    std::exit(1);
}

double number(int argc, char** argv, int& i) {
    if (i + 1 >= argc) usage((std::string(argv[i]) + " needs a value").c_str());
    char* end = nullptr;
    const double v = std::strtod(argv[++i], &end);
    if (end == argv[i] || *end != '\0' || v < 0) usage((std::string(argv[i - 1]) + ": not a number >= 0").c_str());
    return v;
}

Options parse(int argc, char** argv) {
    if (argc < 2) usage("which floor: udp or aes");
    Options o;
    o.mode = argv[1];
    if (o.mode != "udp" && o.mode != "aes") usage("the first argument is udp or aes");
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--segment" || a == "--size") o.segment = static_cast<std::size_t>(number(argc, argv, i));
        else if (a == "--no-gro") o.gro = false;
        else if (a == "--seconds") o.seconds = number(argc, argv, i);
        else if (a == "--rate-mbit") o.rate_mbit = number(argc, argv, i);
        else if (a == "--receiver-cpu") o.receiver_cpu = static_cast<int>(number(argc, argv, i));
        else if (a == "--sender-cpu") o.sender_cpu = static_cast<int>(number(argc, argv, i));
        else usage(("unknown option " + a).c_str());
    }
    if (o.segment < 64 || o.segment > 65000) usage("--segment/--size must be 64..65000 bytes");
    if (o.seconds <= 0) usage("--seconds must be positive");
    return o;
}

void pin_this_thread(int cpu) {
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
        std::fprintf(stderr, "stand_quic_floor: cannot pin a thread to CPU %d\n", cpu);
        std::exit(1);
    }
}

double thread_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double thread_cpu_seconds_precise() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

double now_seconds() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

int receiver_socket(const Options& o, sockaddr_in& bound) {
    const int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) fail("socket");
    const int buffer = 4 << 20, one = 1;  // stand's kQuicReceiveBuffer
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buffer, sizeof buffer) != 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    if (setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &one, sizeof one) != 0) fail("IP_RECVTOS");
    if (o.gro && setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof one) != 0) fail("UDP_GRO");
    const timeval wait{0, 200000};  // the receiver notices the end even when nothing comes
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    bound = sockaddr_in{};
    bound.sin_family = AF_INET;
    bound.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof bound;
    if (bind(fd, reinterpret_cast<sockaddr*>(&bound), sizeof bound) != 0) fail("bind 127.0.0.1:0");
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) != 0) fail("getsockname");
    return fd;
}

// GSO bursts of equal datagrams until `stop`, paced to rate_mbit when > 0.
void send_bursts(const Options& o, const sockaddr_in& to, const std::atomic<bool>& stop) {
    pin_this_thread(o.sender_cpu);
    const int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0 || connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) fail("sender socket");
    std::size_t segments = 65000 / o.segment;
    if (segments > 64) segments = 64;
    if (segments < 1) segments = 1;
    const int segment = static_cast<int>(o.segment);
    if (segments > 1 && setsockopt(fd, SOL_UDP, UDP_SEGMENT, &segment, sizeof segment) != 0) fail("UDP_SEGMENT");
    std::vector<char> burst(segments * o.segment, 'q');
    const double interval = o.rate_mbit > 0 ? static_cast<double>(burst.size()) * 8 / (o.rate_mbit * 1e6) : 0;
    double next = now_seconds();
    while (!stop.load(std::memory_order_relaxed)) {
        if (send(fd, burst.data(), burst.size(), 0) < 0 && errno != ENOBUFS && errno != EAGAIN &&
            errno != ECONNREFUSED)
            fail("send");
        if (interval <= 0) continue;
        next += interval;
        const double late = now_seconds() - next;
        if (late > 0.01) next += late;  // no catch-up storm after a stall
        const double wait = next - now_seconds();
        if (wait > 0) {
            const timespec t{static_cast<time_t>(wait), static_cast<long>((wait - static_cast<time_t>(wait)) * 1e9)};
            nanosleep(&t, nullptr);
        }
    }
    close(fd);
}

struct Received {
    std::uint64_t datagrams = 0, bytes = 0, calls = 0;
    double cpu_seconds = 0, wall_seconds = 0;
};

// Reads as stand's UdpBatchReceiver: 16 messages of 64 KiB and their cmsgs.
Received receive_for(const Options& o, int fd) {
    pin_this_thread(o.receiver_cpu);
    constexpr std::size_t kMessages = 16, kMessageSize = 64 * 1024, kControl = 64;
    std::vector<char> data(kMessages * kMessageSize), control(kMessages * kControl);
    std::vector<iovec> iov(kMessages);
    std::vector<mmsghdr> msgs(kMessages);
    Received r;
    const double cpu0 = thread_cpu_seconds(), start = now_seconds(), end = start + o.seconds;
    while (now_seconds() < end) {
        for (std::size_t i = 0; i < kMessages; ++i) {
            iov[i] = {data.data() + i * kMessageSize, kMessageSize};
            msgs[i].msg_hdr = msghdr{nullptr, 0, &iov[i], 1, control.data() + i * kControl, kControl, 0};
        }
        const int n = recvmmsg(fd, msgs.data(), kMessages, MSG_WAITFORONE, nullptr);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            fail("recvmmsg");
        }
        ++r.calls;
        for (int i = 0; i < n; ++i) {
            const std::size_t len = msgs[i].msg_len;
            r.bytes += len;
            r.datagrams += (len + o.segment - 1) / o.segment;  // a GRO message holds len/segment datagrams
        }
    }
    r.cpu_seconds = thread_cpu_seconds() - cpu0;
    r.wall_seconds = now_seconds() - start;
    return r;
}

int udp_floor(const Options& o) {
    sockaddr_in to{};
    const int fd = receiver_socket(o, to);
    std::atomic<bool> stop{false};
    std::thread sender([&] { send_bursts(o, to, stop); });
    const Received r = receive_for(o, fd);
    stop = true;
    sender.join();
    close(fd);
    if (r.datagrams == 0) {
        std::fprintf(stderr, "stand_quic_floor: the receiver got no datagram\n");
        return 1;
    }
    std::printf("{\"floor\":\"udp\",\"receive\":\"%s\",\"segment\":%zu,\"rate_mbit\":%.1f,\"datagrams\":%llu,"
                "\"bytes\":%llu,\"calls\":%llu,\"receiver_cpu_s\":%.4f,\"mbit_s\":%.1f,\"us_per_datagram\":%.4f,"
                "\"ns_per_byte\":%.4f}\n",
                o.gro ? "gro+recvmmsg" : "recvmmsg", o.segment, o.rate_mbit,
                static_cast<unsigned long long>(r.datagrams), static_cast<unsigned long long>(r.bytes),
                static_cast<unsigned long long>(r.calls), r.cpu_seconds,
                static_cast<double>(r.bytes) * 8 / 1e6 / r.wall_seconds,
                r.cpu_seconds * 1e6 / static_cast<double>(r.datagrams),
                r.cpu_seconds * 1e9 / static_cast<double>(r.bytes));
    return 0;
}

int aes_floor(const Options& o) {
    constexpr std::size_t kHeader = 20, kTag = 16;
    unsigned char key_bytes[16] = {1, 2, 3}, nonce[12] = {4, 5, 6};
    gnutls_datum_t key{key_bytes, sizeof key_bytes};
    gnutls_aead_cipher_hd_t aead = nullptr;
    if (gnutls_aead_cipher_init(&aead, GNUTLS_CIPHER_AES_128_GCM, &key) < 0) {
        std::fprintf(stderr, "stand_quic_floor: GnuTLS has no AES-128-GCM\n");
        return 1;
    }
    const std::size_t plain_size = o.segment - kHeader - kTag;
    std::vector<unsigned char> header(kHeader, 0x40), plain(plain_size, 'p'), sealed(plain_size + kTag), opened(plain_size);
    std::size_t sealed_len = sealed.size();
    if (gnutls_aead_cipher_encrypt(aead, nonce, sizeof nonce, header.data(), kHeader, kTag, plain.data(), plain_size,
                                   sealed.data(), &sealed_len) < 0) {
        std::fprintf(stderr, "stand_quic_floor: gnutls_aead_cipher_encrypt failed\n");
        return 1;
    }
    // The fastest slice of 2048 packets: the floor, without what a noisy
    // (virtual) machine adds to some slices.
    constexpr int kSlice = 2048;
    const double end = now_seconds() + o.seconds;
    std::uint64_t packets = 0;
    double fastest = 1e300, total = 0;
    while (now_seconds() < end) {
        const double t0 = thread_cpu_seconds_precise();
        for (int i = 0; i < kSlice; ++i) {
            std::size_t opened_len = opened.size();
            if (gnutls_aead_cipher_decrypt(aead, nonce, sizeof nonce, header.data(), kHeader, kTag, sealed.data(),
                                           sealed_len, opened.data(), &opened_len) < 0) {
                std::fprintf(stderr, "stand_quic_floor: gnutls_aead_cipher_decrypt failed\n");
                return 1;
            }
        }
        const double slice = (thread_cpu_seconds_precise() - t0) * 1e9 / kSlice;
        fastest = slice < fastest ? slice : fastest;
        total += slice * kSlice;
        packets += kSlice;
    }
    gnutls_aead_cipher_deinit(aead);
    std::printf("{\"floor\":\"aes-128-gcm\",\"library\":\"GnuTLS %s\",\"packet\":%zu,\"packets\":%llu,"
                "\"ns_per_packet\":%.1f,\"ns_per_packet_mean\":%.1f,\"ns_per_byte\":%.4f}\n",
                gnutls_check_version(nullptr), o.segment, static_cast<unsigned long long>(packets), fastest,
                total / static_cast<double>(packets), fastest / static_cast<double>(plain_size));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    return o.mode == "udp" ? udp_floor(o) : aes_floor(o);
}
