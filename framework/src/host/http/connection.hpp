// One kept-alive HTTP/1.1 connection, plain or TLS, driven synchronously
// through async operations on the session's private io_context so that every
// step honours the exchange's deadline.
#pragma once

#include "host/http/deadline.hpp"
#include "host/http/url.hpp"

#include <stand/cpp/error.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>
#include <variant>
#include <vector>

namespace stand::host::http {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

// The peer closed or reset the connection before sending any response byte:
// on a reused connection this is a stale keep-alive, worth one retry.
class ConnectionLost : public cpp::Error {
public:
    explicit ConnectionLost(const std::string& message) : cpp::Error(STAND_E_IO, message) {}
};

class Connection {
public:
    // Connects, and for https handshakes, verifying the peer unless `verify` is false.
    // Throws stand::cpp::Error (STAND_E_UNREACHABLE, STAND_E_TIMEOUT, STAND_E_IO).
    Connection(boost::asio::io_context& ioc, boost::asio::ssl::context* tls, bool verify,
               const Url& url, const std::vector<boost::asio::ip::tcp::endpoint>& endpoints,
               const Deadline& deadline);

    // Sends `request` and reads the whole response. Throws ConnectionLost or
    // stand::cpp::Error (STAND_E_TIMEOUT, STAND_E_IO).
    Response exchange(const Request& request, const Deadline& deadline);

    bool reused() const { return exchanges_ > 0; }
    // False once either side asked to close after the last response.
    bool keep_alive() const { return keep_alive_; }

private:
    using PlainStream = boost::beast::tcp_stream;
    using TlsStream = boost::asio::ssl::stream<boost::beast::tcp_stream>;

    template <class Start>
    boost::system::error_code run(Start&& start);
    boost::beast::tcp_stream& tcp();
    void handshake(bool verify, const Url& url, const Deadline& deadline);

    boost::asio::io_context& ioc_;
    std::string peer_;  // "host:port" for messages
    std::variant<PlainStream, TlsStream> stream_;
    boost::beast::flat_buffer buffer_;
    int exchanges_ = 0;
    bool keep_alive_ = true;
};

}  // namespace stand::host::http
