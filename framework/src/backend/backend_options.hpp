// What the built-in backend serves and where it listens.
#pragma once

#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstddef>
#include <string>

namespace stand::backend {

inline constexpr std::size_t kMaxBodyBytes = 64u << 20;
inline constexpr unsigned kMaxThreads = 256;

struct BackendOptions {
    // Port 0 on either listener: the kernel picks a free port.
    boost::asio::ip::tcp::endpoint listen{boost::asio::ip::address_v4::loopback(), 0};
    boost::asio::ip::tcp::endpoint control{boost::asio::ip::address_v4::loopback(), 0};
    std::size_t body_bytes = 64;
    unsigned threads = 1;
    std::string ws_path = "/ws";
};

}  // namespace stand::backend
