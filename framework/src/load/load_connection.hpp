// One client connection of the load generator: a callback-driven state
// machine (connect, TLS handshake, write the prepared request, read and
// parse the response) that lives on its worker's thread. A kept-alive
// connection is reused while the next link has the same route and the
// exchange stayed in step (a 101, a parse error or bytes that answer no
// request close it, each counted as an error with its reason). It allocates
// nothing per request: the request bytes are the link's, the receive buffer
// is its own, and Asio recycles the handler memory.
#pragma once

#include "load/http1_exchange.hpp"
#include "load/load_dispatch.hpp"
#include "load/load_plan.hpp"
#include "load/load_result.hpp"
#include "load/response_parser.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>

#include <cstdint>
#include <memory>
#include <optional>

namespace stand::load {

class Worker;

class Connection : public Http1Exchange {
public:
    explicit Connection(Worker& worker);
    ~Connection() override;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    void start(std::uint32_t link, std::int64_t intended_ns, std::int64_t now_ns) override;
    void expire() noexcept override;
    void close() noexcept override;

private:
    using Socket = boost::asio::ip::tcp::socket;
    using TlsStream = boost::asio::ssl::stream<Socket>;

    Socket& socket() noexcept { return tls_ ? tls_->next_layer() : socket_; }
    void attempt();
    void connect();
    void on_connect(const boost::system::error_code& ec);
    void on_handshake(const boost::system::error_code& ec);
    void connected();
    void send();
    void on_write(const boost::system::error_code& ec);
    void read();
    void on_read(const boost::system::error_code& ec, std::size_t n);
    void io_error(const boost::system::error_code& ec);
    void complete();
    // Ends the request as an error of `kind` with the reason for where it was.
    void fail_in_phase(ErrorKind kind);
    void fail(ErrorKind kind, const char* reason);
    void defer_fail(ErrorKind kind, const char* reason);
    // Closes the connection; `clean` after a complete exchange keeps its TLS
    // session resumable (OpenSSL drops sessions of connections that were not
    // shut down; we close without sending close_notify).
    void release(bool clean = false) noexcept;

    Worker& worker_;
    Socket socket_;
    std::optional<TlsStream> tls_;
    std::unique_ptr<char[]> buffer_;
    std::size_t used_ = 0;

    const PreparedLink* link_ = nullptr;
    std::int64_t connect_started_ = 0;
    std::int64_t idle_since_ = 0;  // the last response completed
    std::uint32_t route_ = UINT32_MAX;  // of the open connection
    bool open_ = false;
    bool reused_ = false;     // this attempt runs on a kept-alive connection
    bool retried_ = false;    // a stale kept-alive connection was already retried
    std::optional<ErrorKind> pending_;  // set by expire(): how the current request ends
};

}  // namespace stand::load
