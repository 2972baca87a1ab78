#include "load/client_socket.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stand::load {

int open_client_socket(const Plan& plan, const PreparedLink& link, SocketFailure& failure) noexcept {
    const int fd = ::socket(plan.origin(link).endpoint.protocol().family(), SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
    if (fd < 0) {
        failure = {ErrorKind::other, "cannot open a socket"};
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (link.source_v4 != 0) {
        // Let connect() pick the port per destination, so that one source
        // address is not limited to one connection per port.
        ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        const boost::asio::ip::tcp::endpoint source(boost::asio::ip::address_v4(link.source_v4), 0);
        if (::bind(fd, source.data(), static_cast<socklen_t>(source.size())) != 0) {
            ::close(fd);
            failure = {ErrorKind::bind, default_reason(ErrorKind::bind)};
            return -1;
        }
    }
    return fd;
}

}  // namespace stand::load
