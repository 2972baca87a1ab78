#include <stand/kits/panel/tcp_wait.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace stand_panel_kit {

namespace {

bool connects(const sockaddr* addr, socklen_t len) {
    const int fd = ::socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    const bool ok = ::connect(fd, addr, len) == 0;
    ::close(fd);
    return ok;
}

}  // namespace

bool accepts_tcp(const std::string& address, int port) {
    sockaddr_storage addr{};
    socklen_t len = 0;
    auto* v4 = reinterpret_cast<sockaddr_in*>(&addr);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&addr);
    if (::inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(static_cast<uint16_t>(port));
        len = sizeof(*v4);
    } else if (::inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<uint16_t>(port));
        len = sizeof(*v6);
    } else {
        return false;
    }
    return connects(reinterpret_cast<sockaddr*>(&addr), len);
}

bool accepts_tcp(const std::string& host_port) {
    const auto colon = host_port.rfind(':');
    if (colon == std::string::npos || colon + 1 == host_port.size()) return false;
    std::string host = host_port.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    int port = 0;
    for (char c : host_port.substr(colon + 1)) {
        if (c < '0' || c > '9' || port > 65535) return false;
        port = port * 10 + (c - '0');
    }
    return port > 0 && port <= 65535 && accepts_tcp(host, port);
}

bool accepts_unix(const std::string& path) {
    sockaddr_un addr{};
    if (path.empty() || path.size() >= sizeof(addr.sun_path)) return false;
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    return connects(reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
}

bool wait_tcp_listening(const std::string& address, int port, int timeout_ms) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!accepts_tcp(address, port)) {
        if (std::chrono::steady_clock::now() >= end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

}  // namespace stand_panel_kit
