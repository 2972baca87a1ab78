#include "fleet/delay_line.hpp"

#include "posix/unique_fd.hpp"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <deque>
#include <fstream>
#include <ostream>
#include <random>
#include <vector>

namespace stand::fleet {
namespace {

using Clock = std::chrono::steady_clock;

// Packets held at once; past this a packet is dropped and counted (a
// netem's `limit`): 100000 full-size packets is about 150 MB.
constexpr std::size_t kQueueLimit = 100000;

using Fd = posix::UniqueFd;

struct Refusal {
    std::string why;
};

[[noreturn]] void refuse(const std::string& what) { throw Refusal{what + ": " + std::strerror(errno)}; }

int rp_filter_of(const std::string& conf) {
    std::ifstream in("/proc/sys/net/ipv4/conf/" + conf + "/rp_filter");
    int v = 0;
    return (in >> v) ? v : 0;
}

struct Device {
    Fd tun;
    std::string name;
};

// A TUN device with the MTU of `via`, up, not persistent (it goes with the fd).
Device open_tun(const std::string& via) {
    Device d{Fd(::open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK)), {}};
    if (d.tun.get() < 0) refuse("cannot open /dev/net/tun (root and the tun driver are needed)");
    ifreq ifr{};
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    std::strncpy(ifr.ifr_name, "stdl%d", IFNAMSIZ - 1);
    if (::ioctl(d.tun.get(), TUNSETIFF, &ifr) != 0) refuse("TUNSETIFF");
    d.name = ifr.ifr_name;
    const Fd ctl(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    ifreq real{};
    std::strncpy(real.ifr_name, via.c_str(), IFNAMSIZ - 1);
    if (::ioctl(ctl.get(), SIOCGIFMTU, &real) != 0) refuse("interface " + via + ": SIOCGIFMTU");
    ifr.ifr_mtu = real.ifr_mtu;
    if (::ioctl(ctl.get(), SIOCSIFMTU, &ifr) != 0) refuse(d.name + ": SIOCSIFMTU");
    if (::ioctl(ctl.get(), SIOCGIFFLAGS, &ifr) != 0) refuse(d.name + ": SIOCGIFFLAGS");
    ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP);
    if (::ioctl(ctl.get(), SIOCSIFFLAGS, &ifr) != 0) refuse(d.name + ": SIOCSIFFLAGS");
    return d;
}

// A raw IPv4 socket that sends whole packets (headers included) out of `via`.
Fd raw_socket_on(const std::string& via) {
    Fd raw(::socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW));
    if (raw.get() < 0) refuse("raw socket (CAP_NET_RAW is needed)");
    if (::setsockopt(raw.get(), SOL_SOCKET, SO_BINDTODEVICE, via.c_str(), static_cast<socklen_t>(via.size())) != 0)
        refuse("interface " + via + ": SO_BINDTODEVICE");
    return raw;
}

Fd termination_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &set, nullptr);
    Fd fd(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
    if (fd.get() < 0) refuse("signalfd");
    return fd;
}

struct Held {
    Clock::time_point due;
    std::vector<std::uint8_t> bytes;
};

class Line {
public:
    Line(const DelayLinePlan& plan, int raw) : plan_(plan), raw_(raw), random_(std::random_device{}()) {}

    void take(const std::uint8_t* p, std::size_t n, Clock::time_point now) {
        if (n < 20 || (p[0] >> 4) != 4) {
            ++counts_.not_ipv4;
            return;
        }
        if (plan_.loss_pct > 0 && std::uniform_real_distribution<double>(0, 100)(random_) < plan_.loss_pct) {
            ++counts_.lost;
            return;
        }
        if (held_.size() >= kQueueLimit) {
            ++counts_.overflow;
            return;
        }
        auto due = now + plan_.delay;
        if (plan_.jitter.count() > 0)
            due += std::chrono::nanoseconds(
                std::uniform_int_distribution<std::int64_t>(-plan_.jitter.count(), plan_.jitter.count())(random_));
        due = std::max(due, last_due_);  // never reorder
        last_due_ = due;
        held_.push_back({due, std::vector<std::uint8_t>(p, p + n)});
    }

    void send_due(Clock::time_point now) {
        while (!held_.empty() && held_.front().due <= now) {
            const auto& b = held_.front().bytes;
            sockaddr_in to{};
            to.sin_family = AF_INET;
            std::memcpy(&to.sin_addr, b.data() + 16, 4);
            if (::sendto(raw_, b.data(), b.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to) < 0)
                ++counts_.send_failed;
            else ++counts_.forwarded;
            held_.pop_front();
        }
    }

    // ppoll's wait: until the next packet is due, or none.
    const timespec* wait_for(Clock::time_point now, timespec& ts) const {
        if (held_.empty()) return nullptr;
        const auto left = std::max<std::int64_t>(0, (held_.front().due - now).count());
        ts.tv_sec = static_cast<time_t>(left / 1'000'000'000);
        ts.tv_nsec = static_cast<long>(left % 1'000'000'000);
        return &ts;
    }

    const DelayLineCounts& counts() const noexcept { return counts_; }

private:
    const DelayLinePlan& plan_;
    int raw_;
    std::mt19937_64 random_;
    std::deque<Held> held_;
    Clock::time_point last_due_{};
    DelayLineCounts counts_;
};

// Until stdin ends or a signal comes.
void forward(Line& line, int tun, int stop_fd, int signals) {
    std::vector<std::uint8_t> buffer(65536);
    for (;;) {
        pollfd fds[3] = {{tun, POLLIN, 0}, {stop_fd, POLLIN, 0}, {signals, POLLIN, 0}};
        timespec ts{};
        const int n = ::ppoll(fds, 3, line.wait_for(Clock::now(), ts), nullptr);
        if (n < 0 && errno != EINTR) refuse("ppoll");
        if (fds[2].revents != 0) return;
        if (fds[1].revents != 0) return;  // a line ("stop") or the end of stdin
        if (fds[0].revents & POLLIN) {
            const auto now = Clock::now();
            for (ssize_t r; (r = ::read(tun, buffer.data(), buffer.size())) > 0;)
                line.take(buffer.data(), static_cast<std::size_t>(r), now);
        }
        line.send_due(Clock::now());
    }
}

}  // namespace

int run_delay_line(const DelayLinePlan& plan, int stop_fd, std::ostream& out) {
    try {
        if (plan.via.empty() || plan.via.size() >= IFNAMSIZ) throw Refusal{"no interface named '" + plan.via + "'"};
        // Replies come back on `via` while the route to their source is the
        // TUN device: strict reverse-path filtering would drop them.
        if (std::max(rp_filter_of("all"), rp_filter_of(plan.via)) == 1)
            throw Refusal{"interface " + plan.via + " has strict reverse-path filtering (net.ipv4.conf." + plan.via +
                          ".rp_filter or .all.rp_filter = 1), which would drop the replies: set it to 2 (loose) or 0"};
        const Fd signals = termination_signals();
        const Fd raw = raw_socket_on(plan.via);
        const Device device = open_tun(plan.via);
        Line line(plan, raw.get());
        out << "delay-line " << device.name << std::endl;
        forward(line, device.tun.get(), stop_fd, signals.get());
        const auto& c = line.counts();
        out << "delay-line done forwarded=" << c.forwarded << " lost=" << c.lost << " overflow=" << c.overflow
            << " not_ipv4=" << c.not_ipv4 << " send_failed=" << c.send_failed << std::endl;
        return 0;
    } catch (const Refusal& r) {
        out << "refused: " << r.why << std::endl;
        return 1;
    }
}

}  // namespace stand::fleet
